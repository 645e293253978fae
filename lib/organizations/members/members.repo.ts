import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { delegatedAdminGrants, groupMembers, memberships, organizationRoles, scimUsers, users } from '@/lib/db/schema';

export type MembershipStatus = (typeof memberships.$inferSelect)['status'];
export type MembershipRole = (typeof memberships.$inferSelect)['role'];

/** A membership as the members list shows it: the person's address and name come from the user. */
export interface MemberRow {
  id: string;
  userId: string;
  email: string;
  displayName: string | null;
  role: MembershipRole;
  customRoleId: string | null;
  customRoleName: string | null;
  status: MembershipStatus;
  /** A directory (SCIM) provisioned this person into the organization and manages the membership. */
  directoryManaged: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const directoryManaged = sql<boolean>`exists (select 1 from ${scimUsers} where ${scimUsers.membershipId} = ${memberships.id} and ${scimUsers.deprovisionedAt} is null)`;

const memberColumns = {
  id: memberships.id,
  userId: memberships.userId,
  email: users.email,
  displayName: users.displayName,
  role: memberships.role,
  customRoleId: memberships.customRoleId,
  customRoleName: organizationRoles.name,
  status: memberships.status,
  directoryManaged,
  createdAt: memberships.createdAt,
  updatedAt: memberships.updatedAt,
};

function selectMembers(db: Executor) {
  return db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(organizationRoles, and(eq(organizationRoles.id, memberships.customRoleId), eq(organizationRoles.organizationId, memberships.organizationId)));
}

/** The organization's memberships in the given statuses, newest first, keyset-paginated. */
export async function listMembers(
  db: Executor,
  organizationId: string,
  statuses: readonly MembershipStatus[],
  after: Keyset | null,
  limit: number,
): Promise<MemberRow[]> {
  return selectMembers(db)
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        inArray(memberships.status, [...statuses]),
        keysetAfter(memberships.createdAt, memberships.id, after),
      ),
    )
    .orderBy(...keysetOrder(memberships.createdAt, memberships.id))
    .limit(limit);
}

/** One membership of this organization (another organization's membership id is simply not found). */
export async function findMember(db: Executor, organizationId: string, membershipId: string): Promise<MemberRow | null> {
  const [row] = await selectMembers(db).where(and(eq(memberships.organizationId, organizationId), eq(memberships.id, membershipId)));
  return row ?? null;
}

/** A person's membership row of this organization, whatever its status (unique per organization and user). */
export async function findMembershipOfUser(db: Executor, organizationId: string, userId: string): Promise<MemberRow | null> {
  const [row] = await selectMembers(db).where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row ?? null;
}

/** The status of the active or suspended membership of this organization using this address (compared case-insensitively), or null. */
export async function currentMemberStatusByEmail(db: Executor, organizationId: string, email: string): Promise<'active' | 'suspended' | null> {
  const [row] = await db
    .select({ status: memberships.status })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        inArray(memberships.status, ['active', 'suspended']),
        eq(sql`lower(${users.email})`, email.toLowerCase()),
      ),
    );
  return row ? (row.status as 'active' | 'suspended') : null;
}

/** Active owners other than `exceptMembershipId`. Read under lockOrganization only (the last-owner rule). */
export async function countOtherActiveOwners(db: Executor, organizationId: string, exceptMembershipId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.role, 'owner'),
        eq(memberships.status, 'active'),
        ne(memberships.id, exceptMembershipId),
      ),
    );
  return Number(row?.count ?? 0);
}

export interface MembershipChange {
  role?: MembershipRole;
  customRoleId?: string | null;
  status?: MembershipStatus;
}

export async function updateMembership(db: Executor, organizationId: string, membershipId: string, change: MembershipChange, now: Date): Promise<boolean> {
  const rows = await db
    .update(memberships)
    .set({ ...change, updatedAt: now })
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.id, membershipId)))
    .returning({ id: memberships.id });
  return rows.length === 1;
}

export async function insertMembershipRow(db: Executor, row: typeof memberships.$inferInsert): Promise<void> {
  await db.insert(memberships).values(row);
}

/** Takes the membership out of every group of the organization. */
export async function removeFromAllGroups(db: Executor, organizationId: string, membershipId: string): Promise<number> {
  const rows = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.organizationId, organizationId), eq(groupMembers.membershipId, membershipId)))
    .returning({ groupId: groupMembers.groupId });
  return rows.length;
}

/** Ends the membership's live delegated-admin grants (expired ones keep their `expired` status). */
export async function revokeLiveGrants(db: Executor, organizationId: string, membershipId: string, now: Date): Promise<number> {
  const rows = await db
    .update(delegatedAdminGrants)
    .set({ revokedAt: now })
    .where(
      and(
        eq(delegatedAdminGrants.organizationId, organizationId),
        eq(delegatedAdminGrants.membershipId, membershipId),
        isNull(delegatedAdminGrants.revokedAt),
        or(isNull(delegatedAdminGrants.expiresAt), gt(delegatedAdminGrants.expiresAt, now)),
      ),
    )
    .returning({ id: delegatedAdminGrants.id });
  return rows.length;
}
