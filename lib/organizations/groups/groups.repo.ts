import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { groupMembers, groups, memberships, scimGroups, users } from '@/lib/db/schema';

export type GroupRow = typeof groups.$inferSelect;
export interface GroupWithCountRow extends GroupRow {
  memberCount: number;
  directoryManaged: boolean;
}

export interface GroupMemberRow {
  /** The membership id (group members are memberships). */
  id: string;
  userId: string;
  email: string;
  displayName: string | null;
  /** When the member was added to the group. */
  createdAt: Date;
}

const memberCount = sql<number>`(select count(*) from ${groupMembers} where ${groupMembers.groupId} = ${groups.id})`.mapWith(Number);
const directoryManaged = sql<boolean>`exists (select 1 from ${scimGroups} where ${scimGroups.groupId} = ${groups.id})`;

/** The organization's groups with their member counts, newest first, keyset-paginated. */
export async function listGroups(db: Executor, organizationId: string, after: Keyset | null, limit: number): Promise<GroupWithCountRow[]> {
  return db
    .select({
      id: groups.id,
      organizationId: groups.organizationId,
      name: groups.name,
      createdAt: groups.createdAt,
      updatedAt: groups.updatedAt,
      memberCount,
      directoryManaged,
    })
    .from(groups)
    .where(and(eq(groups.organizationId, organizationId), keysetAfter(groups.createdAt, groups.id, after)))
    .orderBy(...keysetOrder(groups.createdAt, groups.id))
    .limit(limit);
}

/**
 * A group of this organization (another organization's group id is not found). `lock` row-locks it
 * for the rest of the transaction: a delete ('update') and member additions ('share') serialise, so
 * a group is never deleted with a member added under its feet.
 */
export async function findGroup(db: Executor, organizationId: string, groupId: string, lock?: 'share' | 'update'): Promise<GroupRow | null> {
  const query = db
    .select()
    .from(groups)
    .where(and(eq(groups.organizationId, organizationId), eq(groups.id, groupId)))
    .$dynamic();
  const [row] = lock ? await query.for(lock) : await query;
  return row ?? null;
}

export async function countGroupMembers(db: Executor, organizationId: string, groupId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(groupMembers)
    .where(and(eq(groupMembers.organizationId, organizationId), eq(groupMembers.groupId, groupId)));
  return row?.n ?? 0;
}

/** Names are unique per organization regardless of case ("Admins" and "admins" would confuse people). */
export async function groupNameTaken(db: Executor, organizationId: string, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.organizationId, organizationId), sql`lower(${groups.name}) = lower(${name})`, exceptId ? ne(groups.id, exceptId) : undefined));
  return row !== undefined;
}

export async function insertGroup(db: Executor, row: GroupRow): Promise<void> {
  await db.insert(groups).values(row);
}

export async function renameGroup(db: Executor, organizationId: string, groupId: string, name: string, now: Date): Promise<GroupRow | null> {
  const [row] = await db
    .update(groups)
    .set({ name, updatedAt: now })
    .where(and(eq(groups.organizationId, organizationId), eq(groups.id, groupId)))
    .returning();
  return row ?? null;
}

export async function deleteGroup(db: Executor, organizationId: string, groupId: string): Promise<void> {
  await db.delete(groups).where(and(eq(groups.organizationId, organizationId), eq(groups.id, groupId)));
}

/** False when the membership is already in the group. */
export async function insertGroupMember(db: Executor, row: typeof groupMembers.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(groupMembers).values(row).onConflictDoNothing().returning({ id: groupMembers.membershipId });
  return inserted.length > 0;
}

/** False when the membership was not in the group. */
export async function deleteGroupMember(db: Executor, organizationId: string, groupId: string, membershipId: string): Promise<boolean> {
  const deleted = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.organizationId, organizationId), eq(groupMembers.groupId, groupId), eq(groupMembers.membershipId, membershipId)))
    .returning({ id: groupMembers.membershipId });
  return deleted.length > 0;
}

/** A group's members (newest addition first, keyset-paginated on the time they were added). */
export async function listGroupMembers(db: Executor, organizationId: string, groupId: string, after: Keyset | null, limit: number): Promise<GroupMemberRow[]> {
  return db
    .select({
      id: groupMembers.membershipId,
      userId: memberships.userId,
      email: users.email,
      displayName: users.displayName,
      createdAt: groupMembers.createdAt,
    })
    .from(groupMembers)
    .innerJoin(memberships, and(eq(memberships.id, groupMembers.membershipId), eq(memberships.organizationId, groupMembers.organizationId)))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(groupMembers.organizationId, organizationId),
        eq(groupMembers.groupId, groupId),
        keysetAfter(groupMembers.createdAt, groupMembers.membershipId, after),
      ),
    )
    .orderBy(...keysetOrder(groupMembers.createdAt, groupMembers.membershipId))
    .limit(limit);
}

/** Every membership in the group (for a directory's replacement of its members). */
export async function groupMembershipIds(db: Executor, organizationId: string, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ id: groupMembers.membershipId })
    .from(groupMembers)
    .where(and(eq(groupMembers.organizationId, organizationId), eq(groupMembers.groupId, groupId)));
  return rows.map((row) => row.id);
}

export async function isDirectoryGroup(db: Executor, groupId: string): Promise<boolean> {
  const [row] = await db.select({ id: scimGroups.groupId }).from(scimGroups).where(eq(scimGroups.groupId, groupId));
  return row !== undefined;
}
