import { and, count, eq, gt, inArray } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { invitations, memberships, organizations } from '@/lib/db/schema';

/** What deleting an organization takes with it, counted before it goes. */
export async function countersOf(db: Executor, organizationId: string, now: Date): Promise<{ members: number; invitations: number }> {
  const [people] = await db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), inArray(memberships.status, ['active', 'suspended'])));
  const [pending] = await db
    .select({ n: count() })
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.status, 'pending'), gt(invitations.expiresAt, now)));
  return { members: Number(people?.n ?? 0), invitations: Number(pending?.n ?? 0) };
}

/** Everyone who ever had a membership (any status): the people whose OAuth grants may be bound to it. */
export async function everMemberUserIds(db: Executor, organizationId: string): Promise<string[]> {
  const rows = await db.selectDistinct({ userId: memberships.userId }).from(memberships).where(eq(memberships.organizationId, organizationId));
  return rows.map((row) => row.userId);
}

/** Deletes the organization; every tenant-owned row goes with it (foreign keys cascade). */
export async function deleteOrganizationRow(db: Executor, organizationId: string): Promise<boolean> {
  const deleted = await db.delete(organizations).where(eq(organizations.id, organizationId)).returning({ id: organizations.id });
  return deleted.length === 1;
}
