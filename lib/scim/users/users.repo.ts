import { and, asc, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { isUuid } from '@/lib/contract/ids';
import type { Executor } from '@/lib/db';
import { memberships, scimUsers } from '@/lib/db/schema';
import type { EqualityFilter } from '../filter';

export type ScimUserRow = typeof scimUsers.$inferSelect;
/** A directory user with its membership's status (`active` is the membership's, not a copy). */
export type ScimUserRecord = ScimUserRow & { membershipStatus: 'active' | 'suspended' | 'revoked' };

const live = (organizationId: string) => and(eq(scimUsers.organizationId, organizationId), isNull(scimUsers.deprovisionedAt));

function selectRecords(db: Executor) {
  return db
    .select({ user: scimUsers, membershipStatus: memberships.status })
    .from(scimUsers)
    .innerJoin(memberships, eq(memberships.id, scimUsers.membershipId));
}

const toRecord = (row: { user: ScimUserRow; membershipStatus: ScimUserRecord['membershipStatus'] }): ScimUserRecord => ({
  ...row.user,
  membershipStatus: row.membershipStatus,
});

export async function insertScimUser(db: Executor, row: ScimUserRow): Promise<void> {
  await db.insert(scimUsers).values(row);
}

export async function updateScimUser(db: Executor, id: string, change: Partial<ScimUserRow>): Promise<void> {
  await db.update(scimUsers).set(change).where(eq(scimUsers.id, id));
}

/** A live directory user of the organization; `lock` row-locks it for the change. */
export async function findScimUser(db: Executor, organizationId: string, id: string, lock = false): Promise<ScimUserRecord | null> {
  if (!isUuid(id)) return null;
  const query = selectRecords(db)
    .where(and(live(organizationId), eq(scimUsers.id, id)))
    .$dynamic();
  const [row] = lock ? await query.for('update', { of: scimUsers }) : await query;
  return row ? toRecord(row) : null;
}

/** Live directory users among `ids` (group members must be users of the same directory). */
export async function findScimUsers(db: Executor, organizationId: string, ids: readonly string[]): Promise<ScimUserRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  return db
    .select()
    .from(scimUsers)
    .where(and(live(organizationId), inArray(scimUsers.id, valid)));
}

export async function userNameTaken(db: Executor, organizationId: string, userNameKey: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: scimUsers.id })
    .from(scimUsers)
    .where(and(live(organizationId), eq(scimUsers.userNameKey, userNameKey), exceptId ? sql`${scimUsers.id} <> ${exceptId}` : undefined));
  return row !== undefined;
}

/** The live directory user already standing for this account, if any. */
export async function liveUserOfAccount(db: Executor, organizationId: string, userId: string): Promise<ScimUserRow | null> {
  const [row] = await db
    .select()
    .from(scimUsers)
    .where(and(live(organizationId), eq(scimUsers.userId, userId)));
  return row ?? null;
}

/** Whether this organization's directory created the account (for a user provisioned earlier, even if gone since). */
export async function directoryCreatedAccount(db: Executor, organizationId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: scimUsers.id })
    .from(scimUsers)
    .where(and(eq(scimUsers.organizationId, organizationId), eq(scimUsers.userId, userId), eq(scimUsers.createdAccount, true)))
    .limit(1);
  return row !== undefined;
}

/** A filter as a condition on the table: parameters only, never text from the filter in the SQL. */
function conditionOf(filter: EqualityFilter | null): SQL | undefined {
  if (!filter) return undefined;
  switch (filter.attribute) {
    case 'userName':
      return eq(scimUsers.userNameKey, filter.value.toLowerCase());
    case 'externalId':
      return eq(scimUsers.externalId, filter.value);
    case 'emails.value':
      return filter.emailType === undefined
        ? sql`exists (select 1 from jsonb_array_elements(${scimUsers.emails}) e where lower(e->>'value') = ${filter.value.toLowerCase()})`
        : sql`exists (select 1 from jsonb_array_elements(${scimUsers.emails}) e where lower(e->>'value') = ${filter.value.toLowerCase()} and lower(e->>'type') = ${filter.emailType.toLowerCase()})`;
    case 'displayName':
      return sql`lower(${scimUsers.displayName}) = ${filter.value.toLowerCase()}`;
  }
}

/** One page of the directory's users in creation order (SCIM pages by position: startIndex is one-based). */
export async function listScimUsers(
  db: Executor,
  organizationId: string,
  filter: EqualityFilter | null,
  offset: number,
  limit: number,
): Promise<ScimUserRecord[]> {
  if (limit === 0) return [];
  const rows = await selectRecords(db)
    .where(and(live(organizationId), conditionOf(filter)))
    .orderBy(asc(scimUsers.createdAt), asc(scimUsers.id))
    .offset(offset)
    .limit(limit);
  return rows.map(toRecord);
}

export async function countScimUsers(db: Executor, organizationId: string, filter: EqualityFilter | null): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(scimUsers)
    .where(and(live(organizationId), conditionOf(filter)));
  return row?.n ?? 0;
}
