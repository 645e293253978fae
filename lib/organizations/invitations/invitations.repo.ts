import { and, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { invitations, organizationRoles, users } from '@/lib/db/schema';

export type StoredInvitationStatus = (typeof invitations.$inferSelect)['status'];
/** What the API shows: a pending invitation past its expiry reads `expired` (nothing rewrites the row). */
export type InvitationStatus = StoredInvitationStatus | 'expired';

export interface InvitationRow {
  id: string;
  organizationId: string;
  email: string;
  role: (typeof invitations.$inferSelect)['role'];
  customRoleId: string | null;
  customRoleName: string | null;
  status: StoredInvitationStatus;
  expiresAt: Date;
  createdAt: Date;
}

const invitationColumns = {
  id: invitations.id,
  organizationId: invitations.organizationId,
  email: invitations.email,
  role: invitations.role,
  customRoleId: invitations.customRoleId,
  customRoleName: organizationRoles.name,
  status: invitations.status,
  expiresAt: invitations.expiresAt,
  createdAt: invitations.createdAt,
};

function selectInvitations(db: Executor) {
  return db
    .select(invitationColumns)
    .from(invitations)
    .leftJoin(organizationRoles, and(eq(organizationRoles.id, invitations.customRoleId), eq(organizationRoles.organizationId, invitations.organizationId)));
}

function statusCondition(status: InvitationStatus | undefined, now: Date): SQL | undefined {
  switch (status) {
    case undefined:
      return undefined;
    case 'pending':
      return and(eq(invitations.status, 'pending'), gt(invitations.expiresAt, now));
    case 'expired':
      return and(eq(invitations.status, 'pending'), lte(invitations.expiresAt, now));
    default:
      return eq(invitations.status, status);
  }
}

/** The organization's invitations (optionally in one computed status), newest first, keyset-paginated. */
export async function listInvitations(
  db: Executor,
  organizationId: string,
  status: InvitationStatus | undefined,
  now: Date,
  after: Keyset | null,
  limit: number,
): Promise<InvitationRow[]> {
  return selectInvitations(db)
    .where(and(eq(invitations.organizationId, organizationId), statusCondition(status, now), keysetAfter(invitations.createdAt, invitations.id, after)))
    .orderBy(...keysetOrder(invitations.createdAt, invitations.id))
    .limit(limit);
}

export async function findInvitation(db: Executor, organizationId: string, id: string): Promise<InvitationRow | null> {
  const [row] = await selectInvitations(db).where(and(eq(invitations.organizationId, organizationId), eq(invitations.id, id)));
  return row ?? null;
}

/** Locks one invitation of this organization until the transaction ends (resend and revoke serialise on it). */
export async function lockInvitation(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.id, id)))
    .for('update');
  return rows.length === 1;
}

/**
 * The invitation a link's token belongs to, locked until the transaction ends (two concurrent
 * accepts: the second waits and then sees it accepted). The token hash is the only key the invitee
 * has: this is the one read that does not start from an organization id.
 */
export async function lockInvitationByTokenHash(db: Executor, tokenHash: string): Promise<InvitationRow | null> {
  const [locked] = await db
    .select({ id: invitations.id, organizationId: invitations.organizationId })
    .from(invitations)
    .where(eq(invitations.tokenHash, tokenHash))
    .for('update');
  if (!locked) return null;
  return findInvitation(db, locked.organizationId, locked.id);
}

/** The invitation a link's token belongs to, unlocked: what the invitation page shows before accepting. */
export async function findInvitationByTokenHash(db: Executor, tokenHash: string): Promise<InvitationRow | null> {
  const [row] = await selectInvitations(db).where(eq(invitations.tokenHash, tokenHash));
  return row ?? null;
}

/** Whether a pending, unexpired invitation for this address exists (compared case-insensitively). */
export async function pendingInvitationFor(db: Executor, organizationId: string, email: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), eq(sql`lower(${invitations.email})`, email.toLowerCase()), statusCondition('pending', now)));
  return row !== undefined;
}

export async function insertInvitation(db: Executor, row: typeof invitations.$inferInsert): Promise<void> {
  await db.insert(invitations).values(row);
}

export interface InvitationChange {
  status?: StoredInvitationStatus;
  tokenHash?: string;
  expiresAt?: Date;
  acceptedAt?: Date;
  membershipId?: string;
}

export async function updateInvitation(db: Executor, organizationId: string, id: string, change: InvitationChange, now: Date): Promise<void> {
  await db
    .update(invitations)
    .set({ ...change, updatedAt: now })
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.id, id)));
}

/**
 * Moves the organization's pending invitations (expired ones too: stored, they are pending) to the
 * address of this user to `status`. Returns how many.
 */
export async function movePendingInvitationsOfUser(
  db: Executor,
  organizationId: string,
  userId: string,
  status: StoredInvitationStatus,
  now: Date,
): Promise<number> {
  const rows = await db
    .update(invitations)
    .set({ status, updatedAt: now })
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        eq(invitations.status, 'pending'),
        eq(sql`lower(${invitations.email})`, sql`(select lower(${users.email}) from ${users} where ${users.id} = ${userId})`),
      ),
    )
    .returning({ id: invitations.id });
  return rows.length;
}
