import { and, eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { organizationRoles } from '@/lib/db/schema';

export type CustomRoleRow = typeof organizationRoles.$inferSelect;

/** A custom role of this organization (another organization's role id is simply not found). */
export async function findCustomRole(db: Executor, organizationId: string, roleId: string): Promise<CustomRoleRow | null> {
  const [row] = await db
    .select()
    .from(organizationRoles)
    .where(and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.id, roleId)));
  return row ?? null;
}
