import { and, eq, inArray, isNull, lt, not, notExists, notInArray, like, or, gt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '@/lib/db';
import { oidcModels } from '@/lib/db/schema';

export type OidcModelRow = typeof oidcModels.$inferSelect;

const live = (now: Date) => or(isNull(oidcModels.expiresAt), gt(oidcModels.expiresAt, now));

export async function upsertModel(db: Executor, row: typeof oidcModels.$inferInsert): Promise<void> {
  await db
    .insert(oidcModels)
    .values(row)
    .onConflictDoUpdate({
      target: [oidcModels.model, oidcModels.id],
      set: { payload: row.payload, grantId: row.grantId, uid: row.uid, userCode: row.userCode, expiresAt: row.expiresAt, consumedAt: null },
    });
}

export async function findModel(db: Executor, model: string, id: string, now: Date): Promise<OidcModelRow | null> {
  const [row] = await db
    .select()
    .from(oidcModels)
    .where(and(eq(oidcModels.model, model), eq(oidcModels.id, id), live(now)));
  return row ?? null;
}

export async function findModelBy(db: Executor, model: string, key: 'uid' | 'userCode', value: string, now: Date): Promise<OidcModelRow | null> {
  const column = key === 'uid' ? oidcModels.uid : oidcModels.userCode;
  const [row] = await db
    .select()
    .from(oidcModels)
    .where(and(eq(oidcModels.model, model), eq(column, value), live(now)));
  return row ?? null;
}

/**
 * Marks a single-use row consumed, atomically: of any number of concurrent calls for one row, exactly
 * one finds it unconsumed and wins (true); the others, and any call for a row already consumed or
 * gone, lose (false).
 */
export async function consumeModel(db: Executor, model: string, id: string, now: Date): Promise<boolean> {
  const won = await db
    .update(oidcModels)
    .set({ consumedAt: now })
    .where(and(eq(oidcModels.model, model), eq(oidcModels.id, id), isNull(oidcModels.consumedAt)))
    .returning({ id: oidcModels.id });
  return won.length === 1;
}

/** The grant a row was issued under (null: no such row, or issued under none). */
export async function grantIdOfModel(db: Executor, model: string, id: string): Promise<string | null> {
  const [row] = await db
    .select({ grantId: oidcModels.grantId })
    .from(oidcModels)
    .where(and(eq(oidcModels.model, model), eq(oidcModels.id, id)));
  return row?.grantId ?? null;
}

export async function destroyModel(db: Executor, model: string, id: string): Promise<void> {
  await db.delete(oidcModels).where(and(eq(oidcModels.model, model), eq(oidcModels.id, id)));
}

/** Every artefact of a grant (codes, access and refresh tokens, ...) and the grant itself. */
export async function destroyGrant(db: Executor, grantId: string): Promise<number> {
  const deleted = await db
    .delete(oidcModels)
    .where(or(eq(oidcModels.grantId, grantId), and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, grantId))))
    .returning({ id: oidcModels.id });
  return deleted.length;
}

/**
 * Rows of secret-id models whose key is not yet a keyed hash (written before hashing), locked for
 * rewriting; rows another instance is rewriting at the same moment are skipped.
 */
export async function lockUnhashedModels(db: Executor, publicModels: string[], hashedPrefix: string): Promise<OidcModelRow[]> {
  return db
    .select()
    .from(oidcModels)
    .where(and(notInArray(oidcModels.model, publicModels), not(like(oidcModels.id, `${hashedPrefix}%`))))
    .for('update', { skipLocked: true });
}

/** Moves a row to a new key with a new payload (and user code), keeping its other columns. */
export async function rekeyModel(
  db: Executor,
  row: OidcModelRow,
  next: { id: string; payload: Record<string, unknown>; userCode: string | null },
): Promise<void> {
  await db
    .insert(oidcModels)
    .values({ ...row, ...next })
    .onConflictDoNothing();
  await db.delete(oidcModels).where(and(eq(oidcModels.model, row.model), eq(oidcModels.id, row.id)));
}

export async function deleteExpiredModels(db: Executor, now: Date): Promise<number> {
  const deleted = await db.delete(oidcModels).where(lt(oidcModels.expiresAt, now)).returning({ id: oidcModels.id });
  return deleted.length;
}

export async function countModels(db: Executor, model: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(oidcModels)
    .where(eq(oidcModels.model, model));
  return row?.n ?? 0;
}

/** Live grants of an account (consents), for the privacy export and the account page. */
export async function listAccountGrants(db: Executor, accountId: string, now: Date): Promise<OidcModelRow[]> {
  return db
    .select()
    .from(oidcModels)
    .where(and(eq(oidcModels.model, 'Grant'), sql`${oidcModels.payload}->>'accountId' = ${accountId}`, live(now)));
}

/** Deletes the provider's sessions of an account that began at `loginTs` (seconds). */
export async function deleteProviderSessions(db: Executor, accountId: string, loginTs: number): Promise<number> {
  const deleted = await db
    .delete(oidcModels)
    .where(
      and(
        eq(oidcModels.model, 'Session'),
        sql`${oidcModels.payload}->>'accountId' = ${accountId}`,
        sql`${oidcModels.payload}->>'loginTs' = ${String(loginTs)}`,
      ),
    )
    .returning({ id: oidcModels.id });
  return deleted.length;
}

const accountIs = (accountId: string) => sql`${oidcModels.payload}->>'accountId' = ${accountId}`;

/**
 * Every OAuth artefact of an account: its grants and everything issued under them, its provider
 * sessions, tokens carrying its account id, and interactions that recorded it signing in.
 */
export async function destroyAccountArtefacts(db: Executor, accountId: string): Promise<number> {
  const grants = db
    .select({ id: oidcModels.id })
    .from(oidcModels)
    .where(and(eq(oidcModels.model, 'Grant'), accountIs(accountId)));
  const deleted = await db
    .delete(oidcModels)
    .where(
      or(
        accountIs(accountId),
        inArray(oidcModels.grantId, grants),
        sql`${oidcModels.payload}->'session'->>'accountId' = ${accountId}`,
        sql`${oidcModels.payload}->'result'->'login'->>'accountId' = ${accountId}`,
      ),
    )
    .returning({ id: oidcModels.id });
  return deleted.length;
}

/** Uids of the provider's sessions of one sign-in of ours (account + login time in seconds). */
export async function providerSessionUids(db: Executor, accountId: string, loginTs: number): Promise<string[]> {
  const rows = await db
    .select({ uid: oidcModels.uid })
    .from(oidcModels)
    .where(and(eq(oidcModels.model, 'Session'), accountIs(accountId), sql`${oidcModels.payload}->>'loginTs' = ${String(loginTs)}`));
  return rows.flatMap((row) => (row.uid ? [row.uid] : []));
}

/**
 * Codes and tokens of an account that were not issued under the given provider sessions, then the
 * account's grants that nothing issued under them remains of.
 */
export async function destroyTokensOutsideSessions(db: Executor, accountId: string, models: string[], keepSessionUids: string[]): Promise<number> {
  const outside = keepSessionUids.length
    ? or(sql`${oidcModels.payload}->>'sessionUid' is null`, sql`${oidcModels.payload}->>'sessionUid' not in ${keepSessionUids}`)
    : undefined;
  const tokens = await db
    .delete(oidcModels)
    .where(and(inArray(oidcModels.model, models), accountIs(accountId), outside))
    .returning({ id: oidcModels.id });
  const artefact = alias(oidcModels, 'artefact');
  const grants = await db
    .delete(oidcModels)
    .where(
      and(
        eq(oidcModels.model, 'Grant'),
        accountIs(accountId),
        notExists(db.select({ id: artefact.id }).from(artefact).where(eq(artefact.grantId, oidcModels.id))),
      ),
    )
    .returning({ id: oidcModels.id });
  return tokens.length + grants.length;
}

const clientIs = (clientId: string) => sql`${oidcModels.payload}->>'clientId' = ${clientId}`;

/**
 * Everything a client holds or is in the middle of: its grants and every artefact issued under them,
 * codes and tokens naming it (access, refresh, ...), and pending interactions for it.
 */
export async function destroyClientArtefacts(db: Executor, clientId: string): Promise<number> {
  const grants = db
    .select({ id: oidcModels.id })
    .from(oidcModels)
    .where(and(eq(oidcModels.model, 'Grant'), clientIs(clientId)));
  const deleted = await db
    .delete(oidcModels)
    .where(
      or(
        clientIs(clientId),
        inArray(oidcModels.grantId, grants),
        and(eq(oidcModels.model, 'Interaction'), sql`${oidcModels.payload}->'params'->>'client_id' = ${clientId}`),
      ),
    )
    .returning({ id: oidcModels.id });
  return deleted.length;
}
