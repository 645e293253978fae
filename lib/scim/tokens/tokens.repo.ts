import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { scimTokens } from '@/lib/db/schema';

export type ScimTokenRow = typeof scimTokens.$inferSelect;

export async function insertScimToken(db: Executor, row: ScimTokenRow): Promise<void> {
  await db.insert(scimTokens).values(row);
}

export async function listScimTokens(db: Executor, organizationId: string, after: Keyset | null, limit: number): Promise<ScimTokenRow[]> {
  return db
    .select()
    .from(scimTokens)
    .where(and(eq(scimTokens.organizationId, organizationId), keysetAfter(scimTokens.createdAt, scimTokens.id, after)))
    .orderBy(...keysetOrder(scimTokens.createdAt, scimTokens.id))
    .limit(limit);
}

/** Revokes a live token of the organization; answers the row (null: no such token, or already revoked). */
export async function markScimTokenRevoked(db: Executor, organizationId: string, id: string, now: Date): Promise<ScimTokenRow | null> {
  const [row] = await db
    .update(scimTokens)
    .set({ revokedAt: now })
    .where(and(eq(scimTokens.id, id), eq(scimTokens.organizationId, organizationId), isNull(scimTokens.revokedAt)))
    .returning();
  return row ?? null;
}

export async function findScimToken(db: Executor, organizationId: string, id: string): Promise<ScimTokenRow | null> {
  const [row] = await db
    .select()
    .from(scimTokens)
    .where(and(eq(scimTokens.id, id), eq(scimTokens.organizationId, organizationId)));
  return row ?? null;
}

/** A live token by its hash (an organization's deletion takes its tokens with it). */
export async function findLiveScimTokenByHash(db: Executor, tokenHash: string): Promise<ScimTokenRow | null> {
  const [row] = await db
    .select()
    .from(scimTokens)
    .where(and(eq(scimTokens.tokenHash, tokenHash), isNull(scimTokens.revokedAt)));
  return row ?? null;
}

/** Records a use at most once per interval, so a busy directory does not write on every request. */
export async function touchScimToken(db: Executor, id: string, now: Date, intervalMs: number): Promise<void> {
  const due = new Date(now.getTime() - intervalMs);
  await db
    .update(scimTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(scimTokens.id, id), or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, due))));
}
