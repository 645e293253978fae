import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { idempotencyRecords } from '@/lib/db/schema';

export interface IdempotencyScope {
  principal: string;
  operationId: string;
  key: string;
}

const scopeWhere = (s: IdempotencyScope) =>
  and(eq(idempotencyRecords.principal, s.principal), eq(idempotencyRecords.operationId, s.operationId), eq(idempotencyRecords.key, s.key));

/** Claims the key; returns false when a record for this scope already exists. */
export async function claimKey(db: Executor, scope: IdempotencyScope, requestHash: string, now: Date, expiresAt: Date): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyRecords)
    .values({ ...scope, requestHash, state: 'in_flight', createdAt: now, expiresAt })
    .onConflictDoNothing()
    .returning({ key: idempotencyRecords.key });
  return inserted.length === 1;
}

export async function findRecord(db: Executor, scope: IdempotencyScope) {
  const [row] = await db
    .select({
      requestHash: idempotencyRecords.requestHash,
      state: idempotencyRecords.state,
      responseStatus: idempotencyRecords.responseStatus,
      responseBody: idempotencyRecords.responseBody,
      expiresAt: idempotencyRecords.expiresAt,
    })
    .from(idempotencyRecords)
    .where(scopeWhere(scope));
  return row ?? null;
}

export async function completeRecord(db: Executor, scope: IdempotencyScope, status: number, body: unknown): Promise<void> {
  await db.update(idempotencyRecords).set({ state: 'completed', responseStatus: status, responseBody: body }).where(scopeWhere(scope));
}

export async function releaseRecord(db: Executor, scope: IdempotencyScope): Promise<void> {
  await db.delete(idempotencyRecords).where(scopeWhere(scope));
}

export async function deleteExpiredRecord(db: Executor, scope: IdempotencyScope, now: Date): Promise<void> {
  await db.delete(idempotencyRecords).where(and(scopeWhere(scope), lt(idempotencyRecords.expiresAt, now)));
}

export async function deleteExpiredRecords(db: Executor, now: Date): Promise<number> {
  const deleted = await db.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAt, now)).returning({ key: idempotencyRecords.key });
  return deleted.length;
}
