import { and, asc, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { isUuid } from '@/lib/contract/ids';
import type { Executor } from '@/lib/db';
import { groupMembers, groups, scimGroups, scimUsers } from '@/lib/db/schema';
import type { EqualityFilter } from '../filter';

/** An organization's group as the directory sees it: the group, and its externalId when a directory set one. */
export interface ScimGroupRecord {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  externalId: string | null;
  /** A directory created or adopted it. */
  managed: boolean;
}

export interface ScimGroupMember {
  groupId: string;
  scimUserId: string;
  membershipId: string;
  display: string;
}

function selectGroups(db: Executor) {
  return db
    .select({
      id: groups.id,
      name: groups.name,
      createdAt: groups.createdAt,
      updatedAt: groups.updatedAt,
      externalId: scimGroups.externalId,
      link: scimGroups.groupId,
    })
    .from(groups)
    .leftJoin(scimGroups, eq(scimGroups.groupId, groups.id));
}

const toRecord = ({ link, ...row }: { link: string | null } & Omit<ScimGroupRecord, 'managed'>): ScimGroupRecord => ({ ...row, managed: link !== null });

export async function findScimGroup(db: Executor, organizationId: string, id: string): Promise<ScimGroupRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await selectGroups(db).where(and(eq(groups.organizationId, organizationId), eq(groups.id, id)));
  return row ? toRecord(row) : null;
}

function conditionOf(filter: EqualityFilter | null): SQL | undefined {
  if (!filter) return undefined;
  return filter.attribute === 'externalId' ? eq(scimGroups.externalId, filter.value) : sql`lower(${groups.name}) = ${filter.value.toLowerCase()}`;
}

export async function listScimGroups(
  db: Executor,
  organizationId: string,
  filter: EqualityFilter | null,
  offset: number,
  limit: number,
): Promise<ScimGroupRecord[]> {
  if (limit === 0) return [];
  const rows = await selectGroups(db)
    .where(and(eq(groups.organizationId, organizationId), conditionOf(filter)))
    .orderBy(asc(groups.createdAt), asc(groups.id))
    .offset(offset)
    .limit(limit);
  return rows.map(toRecord);
}

export async function countScimGroups(db: Executor, organizationId: string, filter: EqualityFilter | null): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(groups)
    .leftJoin(scimGroups, eq(scimGroups.groupId, groups.id))
    .where(and(eq(groups.organizationId, organizationId), conditionOf(filter)));
  return row?.n ?? 0;
}

/** The members of these groups that are users of the directory (members added in the console are the console's). */
export async function directoryMembersOf(db: Executor, organizationId: string, groupIds: readonly string[]): Promise<ScimGroupMember[]> {
  if (groupIds.length === 0) return [];
  return db
    .select({
      groupId: groupMembers.groupId,
      scimUserId: scimUsers.id,
      membershipId: groupMembers.membershipId,
      display: sql<string>`coalesce(${scimUsers.displayName}, ${scimUsers.userName})`,
    })
    .from(groupMembers)
    .innerJoin(scimUsers, and(eq(scimUsers.membershipId, groupMembers.membershipId), isNull(scimUsers.deprovisionedAt)))
    .where(and(eq(groupMembers.organizationId, organizationId), inArray(groupMembers.groupId, [...groupIds])))
    .orderBy(asc(groupMembers.createdAt), asc(scimUsers.id));
}

/** Marks the group as the directory's, with its externalId (set once; the service refuses a change). */
export async function linkScimGroup(db: Executor, row: typeof scimGroups.$inferInsert): Promise<void> {
  await db
    .insert(scimGroups)
    .values(row)
    .onConflictDoUpdate({ target: scimGroups.groupId, set: { externalId: row.externalId } });
}
