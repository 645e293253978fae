import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { apiKeys, users } from '@/lib/db/schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(db: Executor, row: ApiKeyRow): Promise<void> {
  await db.insert(apiKeys).values(row);
}

/** Row lock on the owner: concurrent creations by one owner are counted one after another. */
export async function lockOwner(db: Executor, userId: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  return rows.length > 0;
}

/** Keys of the owner that still authenticate (not revoked, not expired). */
export async function countLiveApiKeys(db: Executor, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now))));
  return row?.n ?? 0;
}

/** The owner's keys, newest first, keyset-paginated. */
export async function listApiKeys(db: Executor, userId: string, after: Keyset | null, limit: number): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), keysetAfter(apiKeys.createdAt, apiKeys.id, after)))
    .orderBy(...keysetOrder(apiKeys.createdAt, apiKeys.id))
    .limit(limit);
}

/** The owner's key, locked for the change; another owner's key is simply not found. */
export async function findOwnedApiKey(db: Executor, userId: string, id: string): Promise<ApiKeyRow | null> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .for('update');
  return row ?? null;
}

export async function markApiKeyRevoked(db: Executor, userId: string, id: string, now: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
}

/** Revokes the owner's live keys created under a grant; answers the rows it revoked. */
export async function markGrantApiKeysRevoked(db: Executor, userId: string, grantId: string, now: Date): Promise<ApiKeyRow[]> {
  return db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.grantId, grantId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning();
}

function apiKeyByHashQuery(db: Executor) {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
    .prepare('api_key_by_hash');
}

/** Built once per database handle: every API-key request runs it (as the session read does its own). */
const preparedFor = new WeakMap<Executor, ReturnType<typeof apiKeyByHashQuery>>();

export async function findApiKeyByHash(db: Executor, keyHash: string): Promise<ApiKeyRow | null> {
  let query = preparedFor.get(db);
  if (!query) preparedFor.set(db, (query = apiKeyByHashQuery(db)));
  const [row] = await query.execute({ keyHash });
  return row ?? null;
}

/**
 * Records a use at most once per `intervalMs` per key: the condition makes every other request in the
 * interval a no-op that writes nothing (no row version, no WAL record).
 */
export async function touchApiKey(db: Executor, id: string, now: Date, intervalMs: number): Promise<void> {
  const before = new Date(now.getTime() - intervalMs);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, before))));
}
