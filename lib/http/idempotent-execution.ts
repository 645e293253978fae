/**
 * Pipeline step 11-12 for a claimed Idempotency-Key: the execution and its stored answer are one
 * transaction. Everything the handler writes through getDb()/inTransaction (services, the OIDC
 * adapter) joins a transaction scope; the answer is stored in that same transaction, conditional on
 * still holding the claim; then it commits. A server failure rolls everything back and frees the key;
 * a claim lost to a takeover (this execution outlived its lease) rolls back and answers 409.
 */
import { TransactionScope } from '@/lib/db';
import { completeIdempotent, logLine, releaseIdempotent, type IdempotencyClaim, type StoredResponse } from '@/lib/platform';
import { describeForLog } from './problem';

export interface Settled<T> {
  /** What the caller answers. */
  result: T;
  /** The answer to store and replay (success or client error), or null: retryable, roll back. */
  store: StoredResponse | null;
}

async function abandon(scope: TransactionScope, claim: IdempotencyClaim): Promise<void> {
  await scope.rollback();
  try {
    // Conditional on our token: a no-op when another execution has taken the key over.
    await releaseIdempotent(claim);
  } catch (error) {
    // The lease frees the key anyway, a little later.
    logLine('error', 'idempotency_release_failed', { error: describeForLog(error) });
  }
}

export async function executeIdempotently<T>(claim: IdempotencyClaim, work: () => Promise<Settled<T>>): Promise<T> {
  const scope = new TransactionScope();
  let settled: Settled<T>;
  try {
    settled = await scope.run(work);
  } catch (error) {
    await abandon(scope, claim);
    throw error;
  }
  if (!settled.store) {
    await abandon(scope, claim);
    return settled.result;
  }
  try {
    const stored = settled.store;
    await scope.run(() => completeIdempotent(claim, stored));
    await scope.commit();
  } catch (error) {
    await abandon(scope, claim);
    throw error;
  }
  return settled.result;
}
