import { and, asc, count, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { isUuid } from '@/lib/contract/ids';
import type { Executor } from '@/lib/db';
import { memberships, scimDirectories, scimUserBlocks, scimUsers } from '@/lib/db/schema';
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

/** Rows of `seq` per block (a power of two: the block of a seq is a shift). */
export const BLOCK_SIZE = 1024;

/** The next position in the directory's order (the caller holds the directory's lock). */
export async function nextSeq(db: Executor, organizationId: string): Promise<number> {
  const [row] = await db
    .insert(scimDirectories)
    .values({ organizationId, nextSeq: 2 })
    .onConflictDoUpdate({ target: scimDirectories.organizationId, set: { nextSeq: sql`${scimDirectories.nextSeq} + 1` } })
    .returning({ next: scimDirectories.nextSeq });
  return row!.next - 1;
}

/** One more (or one fewer) live user in the block of `seq`. */
async function countInBlock(db: Executor, organizationId: string, seq: number, delta: 1 | -1): Promise<void> {
  await db
    .insert(scimUserBlocks)
    .values({ organizationId, block: Math.floor(seq / BLOCK_SIZE), liveCount: delta })
    .onConflictDoUpdate({ target: [scimUserBlocks.organizationId, scimUserBlocks.block], set: { liveCount: sql`${scimUserBlocks.liveCount} + ${delta}` } });
}

export async function insertScimUser(db: Executor, row: ScimUserRow): Promise<void> {
  await db.insert(scimUsers).values(row);
  await countInBlock(db, row.organizationId, row.seq, 1);
}

export async function updateScimUser(db: Executor, id: string, change: Partial<Omit<ScimUserRow, 'deprovisionedAt' | 'seq'>>): Promise<void> {
  await db.update(scimUsers).set(change).where(eq(scimUsers.id, id));
}

/** The user is no longer a resource (its row stays, marked, as the record that the directory made the account). */
export async function markDeprovisioned(db: Executor, row: Pick<ScimUserRow, 'id' | 'organizationId' | 'seq'>, now: Date): Promise<void> {
  await db.update(scimUsers).set({ deprovisionedAt: now, updatedAt: now }).where(eq(scimUsers.id, row.id));
  await countInBlock(db, row.organizationId, row.seq, -1);
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

/**
 * Where the live user at `offset` (zero-based) is: the first `seq` of its block and how many live
 * users of that block come before it. One pass over the block counts (about 100 rows per 100,000
 * users), never over the users themselves.
 */
async function locate(db: Executor, organizationId: string, offset: number): Promise<{ fromSeq: number; skip: number } | null> {
  const result = await db.execute(sql`
    select block, running - live_count as before from (
      select block, live_count, sum(live_count) over (order by block) as running
      from ${scimUserBlocks} where organization_id = ${organizationId}
    ) counted where running > ${offset} order by block limit 1`);
  // postgres-js answers an array of rows, PGlite an object with `rows`.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { block: string | number; before: string | number }[];
  const found = rows[0];
  return found ? { fromSeq: Number(found.block) * BLOCK_SIZE, skip: offset - Number(found.before) } : null;
}

/**
 * One page of the directory's users in creation order (SCIM pages by position: startIndex is
 * one-based). Unfiltered, a deep page skips whole blocks by their counts and at most one block's
 * rows; a filter names one value, so its matches are few and are skipped directly.
 */
export async function listScimUsers(
  db: Executor,
  organizationId: string,
  filter: EqualityFilter | null,
  offset: number,
  limit: number,
): Promise<ScimUserRecord[]> {
  if (limit === 0) return [];
  const start = filter ? { fromSeq: 0, skip: offset } : await locate(db, organizationId, offset);
  if (!start) return [];
  const rows = await selectRecords(db)
    .where(and(live(organizationId), conditionOf(filter), gte(scimUsers.seq, start.fromSeq)))
    .orderBy(asc(scimUsers.seq))
    .offset(start.skip)
    .limit(limit);
  return rows.map(toRecord);
}

/** totalResults: the sum of the block counts without a filter, the matches with one. */
export async function countScimUsers(db: Executor, organizationId: string, filter: EqualityFilter | null): Promise<number> {
  if (!filter) {
    const [row] = await db
      .select({ n: sql<number>`coalesce(sum(${scimUserBlocks.liveCount}), 0)`.mapWith(Number) })
      .from(scimUserBlocks)
      .where(eq(scimUserBlocks.organizationId, organizationId));
    return row?.n ?? 0;
  }
  const [row] = await db
    .select({ n: count() })
    .from(scimUsers)
    .where(and(live(organizationId), conditionOf(filter)));
  return row?.n ?? 0;
}

/** Erasure: the person's directory records in every organization (live ones leave their block counts first). */
export async function deleteDirectoryUsersOf(db: Executor, userId: string, now: Date): Promise<void> {
  const rows = await db
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.userId, userId), isNull(scimUsers.deprovisionedAt)));
  for (const row of rows) await markDeprovisioned(db, row, now);
  await db.delete(scimUsers).where(eq(scimUsers.userId, userId));
}
