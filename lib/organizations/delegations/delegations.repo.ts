import { and, eq } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { delegatedAdminGrants, memberships, users } from '@/lib/db/schema';

export type GrantRow = typeof delegatedAdminGrants.$inferSelect;
export interface GrantWithMemberRow extends GrantRow {
  userId: string;
  email: string;
}

const withMember = {
  id: delegatedAdminGrants.id,
  organizationId: delegatedAdminGrants.organizationId,
  membershipId: delegatedAdminGrants.membershipId,
  permissions: delegatedAdminGrants.permissions,
  expiresAt: delegatedAdminGrants.expiresAt,
  createdBy: delegatedAdminGrants.createdBy,
  revokedAt: delegatedAdminGrants.revokedAt,
  createdAt: delegatedAdminGrants.createdAt,
  userId: memberships.userId,
  email: users.email,
};

/** The organization's grants (every status), newest first, keyset-paginated. */
export async function listGrants(db: Executor, organizationId: string, after: Keyset | null, limit: number): Promise<GrantWithMemberRow[]> {
  return db
    .select(withMember)
    .from(delegatedAdminGrants)
    .innerJoin(memberships, and(eq(memberships.id, delegatedAdminGrants.membershipId), eq(memberships.organizationId, delegatedAdminGrants.organizationId)))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(delegatedAdminGrants.organizationId, organizationId), keysetAfter(delegatedAdminGrants.createdAt, delegatedAdminGrants.id, after)))
    .orderBy(...keysetOrder(delegatedAdminGrants.createdAt, delegatedAdminGrants.id))
    .limit(limit);
}

export async function insertGrant(db: Executor, row: GrantRow): Promise<void> {
  await db.insert(delegatedAdminGrants).values(row);
}

/** A grant of this organization, row-locked for the rest of the transaction (revoked once). */
export async function lockGrant(db: Executor, organizationId: string, grantId: string): Promise<GrantRow | null> {
  const [row] = await db
    .select()
    .from(delegatedAdminGrants)
    .where(and(eq(delegatedAdminGrants.organizationId, organizationId), eq(delegatedAdminGrants.id, grantId)))
    .for('update');
  return row ?? null;
}

export async function markGrantRevoked(db: Executor, organizationId: string, grantId: string, at: Date): Promise<void> {
  await db
    .update(delegatedAdminGrants)
    .set({ revokedAt: at })
    .where(and(eq(delegatedAdminGrants.organizationId, organizationId), eq(delegatedAdminGrants.id, grantId)));
}

/** The delegated-admin grants a person holds (or held) in any organization, for their privacy export. */
export async function grantsHeldBy(db: Executor, userId: string): Promise<GrantRow[]> {
  return db
    .select({ grant: delegatedAdminGrants })
    .from(delegatedAdminGrants)
    .innerJoin(memberships, eq(memberships.id, delegatedAdminGrants.membershipId))
    .where(eq(memberships.userId, userId))
    .then((rows) => rows.map((row) => row.grant));
}
