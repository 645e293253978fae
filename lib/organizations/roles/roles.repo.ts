import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { invitations, memberships, organizationRoles } from '@/lib/db/schema';

export type CustomRoleRow = typeof organizationRoles.$inferSelect;

/**
 * A custom role of this organization (another organization's role id is simply not found). The row is
 * share-locked for the rest of the caller's transaction, so assigning the role (a member's or an
 * invitation's) and deleting it serialise: a deletion never misses a concurrent assignment.
 */
export async function findCustomRole(db: Executor, organizationId: string, roleId: string): Promise<CustomRoleRow | null> {
  const [row] = await db
    .select()
    .from(organizationRoles)
    .where(and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.id, roleId)))
    .for('share');
  return row ?? null;
}

/** The same, row-locked for a change or a deletion. */
export async function lockCustomRole(db: Executor, organizationId: string, roleId: string): Promise<CustomRoleRow | null> {
  const [row] = await db
    .select()
    .from(organizationRoles)
    .where(and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.id, roleId)))
    .for('update');
  return row ?? null;
}

/** Every custom role of the organization (they are capped, so one read holds them all), newest first. */
export async function listCustomRoles(db: Executor, organizationId: string): Promise<CustomRoleRow[]> {
  return db
    .select()
    .from(organizationRoles)
    .where(eq(organizationRoles.organizationId, organizationId))
    .orderBy(desc(organizationRoles.createdAt), desc(organizationRoles.id));
}

export async function countCustomRoles(db: Executor, organizationId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(organizationRoles).where(eq(organizationRoles.organizationId, organizationId));
  return row?.n ?? 0;
}

/** Names are unique per organization regardless of case. */
export async function roleNameTaken(db: Executor, organizationId: string, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: organizationRoles.id })
    .from(organizationRoles)
    .where(
      and(
        eq(organizationRoles.organizationId, organizationId),
        sql`lower(${organizationRoles.name}) = lower(${name})`,
        exceptId ? ne(organizationRoles.id, exceptId) : undefined,
      ),
    );
  return row !== undefined;
}

export async function insertCustomRole(db: Executor, row: CustomRoleRow): Promise<void> {
  await db.insert(organizationRoles).values(row);
}

export async function updateCustomRole(
  db: Executor,
  organizationId: string,
  roleId: string,
  changes: { name?: string; description?: string | null; permissions?: string[]; apiPermissions?: { resource: string; permission: string }[] },
  now: Date,
): Promise<CustomRoleRow | null> {
  const [row] = await db
    .update(organizationRoles)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.id, roleId)))
    .returning();
  return row ?? null;
}

/** What still uses the role: memberships that are not revoked, and pending invitations (expired ones can be resent). */
export async function customRoleUse(db: Executor, organizationId: string, roleId: string): Promise<{ memberships: number; invitations: number }> {
  const [members] = await db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.customRoleId, roleId), ne(memberships.status, 'revoked')));
  const [invited] = await db
    .select({ n: count() })
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.customRoleId, roleId), eq(invitations.status, 'pending')));
  return { memberships: members?.n ?? 0, invitations: invited?.n ?? 0 };
}

/**
 * Deletes an unused role. History that still names it (revoked memberships, accepted or revoked
 * invitations) keeps `role = custom` without the reference, which the foreign keys require.
 */
export async function deleteCustomRole(db: Executor, organizationId: string, roleId: string): Promise<void> {
  await db
    .update(memberships)
    .set({ customRoleId: null })
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.customRoleId, roleId)));
  await db
    .update(invitations)
    .set({ customRoleId: null })
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.customRoleId, roleId)));
  await db.delete(organizationRoles).where(and(eq(organizationRoles.organizationId, organizationId), eq(organizationRoles.id, roleId)));
}
