import { and, eq, isNull, lt, lte, or } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { idempotencyRecords } from '@/lib/db/schema';

export interface IdempotencyScope {
  principal: string;
  operationId: string;
  key: string;
}

const scopeWhere = (s: IdempotencyScope) =>
  and(eq(idempotencyRecords.principal, s.principal), eq(idempotencyRecords.operationId, s.operationId), eq(idempotencyRecords.key, s.key));

/** The in-flight record still held by `token`: every write after the claim is conditional on it. */
const heldBy = (s: IdempotencyScope, token: string) => and(scopeWhere(s), eq(idempotencyRecords.state, 'in_flight'), eq(idempotencyRecords.claimToken, token));

/** Claims the key for an execution; returns false when a record for this scope already exists. */
export async function claimKey(
  db: Executor,
  scope: IdempotencyScope,
  claim: { requestHash: string; token: string; now: Date; leaseExpiresAt: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyRecords)
    .values({
      ...scope,
      requestHash: claim.requestHash,
      state: 'in_flight',
      claimToken: claim.token,
      leaseExpiresAt: claim.leaseExpiresAt,
      createdAt: claim.now,
      expiresAt: claim.expiresAt,
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyRecords.key });
  return inserted.length === 1;
}

export async function findRecord(db: Executor, scope: IdempotencyScope) {
  const [row] = await db
    .select({
      requestHash: idempotencyRecords.requestHash,
      state: idempotencyRecords.state,
      claimToken: idempotencyRecords.claimToken,
      leaseExpiresAt: idempotencyRecords.leaseExpiresAt,
      responseStatus: idempotencyRecords.responseStatus,
      responseBody: idempotencyRecords.responseBody,
      expiresAt: idempotencyRecords.expiresAt,
    })
    .from(idempotencyRecords)
    .where(scopeWhere(scope));
  return row ?? null;
}

/**
 * Takes over an in-flight record whose lease has run out, if it is still the one that was read
 * (same token): of two retries racing for it, one wins.
 */
export async function takeOverClaim(
  db: Executor,
  scope: IdempotencyScope,
  takeover: { previousToken: string | null; token: string; now: Date; leaseExpiresAt: Date },
): Promise<boolean> {
  const previous = takeover.previousToken === null ? isNull(idempotencyRecords.claimToken) : eq(idempotencyRecords.claimToken, takeover.previousToken);
  const taken = await db
    .update(idempotencyRecords)
    .set({ claimToken: takeover.token, leaseExpiresAt: takeover.leaseExpiresAt })
    .where(
      and(
        scopeWhere(scope),
        eq(idempotencyRecords.state, 'in_flight'),
        previous,
        or(isNull(idempotencyRecords.leaseExpiresAt), lte(idempotencyRecords.leaseExpiresAt, takeover.now)),
      ),
    )
    .returning({ key: idempotencyRecords.key });
  return taken.length === 1;
}

/** Stores the answer, only while `token` still holds the claim; false when it was taken over. */
export async function completeClaim(db: Executor, scope: IdempotencyScope, token: string, status: number, body: unknown): Promise<boolean> {
  const completed = await db
    .update(idempotencyRecords)
    .set({ state: 'completed', responseStatus: status, responseBody: body, leaseExpiresAt: null })
    .where(heldBy(scope, token))
    .returning({ key: idempotencyRecords.key });
  return completed.length === 1;
}

/** Frees the key after a failed execution, unless another execution has taken it over meanwhile. */
export async function releaseClaim(db: Executor, scope: IdempotencyScope, token: string): Promise<void> {
  await db.delete(idempotencyRecords).where(heldBy(scope, token));
}

export async function deleteExpiredRecord(db: Executor, scope: IdempotencyScope, now: Date): Promise<void> {
  await db.delete(idempotencyRecords).where(and(scopeWhere(scope), lt(idempotencyRecords.expiresAt, now)));
}

export async function deleteExpiredRecords(db: Executor, now: Date): Promise<number> {
  const deleted = await db.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAt, now)).returning({ key: idempotencyRecords.key });
  return deleted.length;
}
