import { createHash } from 'node:crypto';
import { serviceError } from '@/lib/contract/errors';
import { shouldSweep } from './sweep';
import { getDb } from '@/lib/db';
import {
  claimKey,
  completeRecord,
  deleteExpiredRecord,
  deleteExpiredRecords,
  findRecord,
  releaseRecord,
  type IdempotencyScope,
} from './idempotency.repo';

export type { IdempotencyScope };

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** Idempotency-Key values: 1-255 visible ASCII characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return /^[\x21-\x7e]{1,255}$/.test(key);
}

export function hashRequest(method: string, path: string, body: string): string {
  return createHash('sha256').update(`${method}\n${path}\n${body}`).digest('base64url');
}

/**
 * Starts an idempotent execution. Returns a stored response to replay, or null when the caller holds
 * the key and must run the handler and then call `finishIdempotent` / `abandonIdempotent`.
 * Same key + different body: 422. Same key while the first request still runs: 409.
 */
export async function beginIdempotent(
  scope: IdempotencyScope,
  requestHash: string,
  now: Date,
  ttlSeconds: number,
): Promise<StoredResponse | null> {
  const db = await getDb();
  if (shouldSweep()) await deleteExpiredRecords(db, now);
  else await deleteExpiredRecord(db, scope, now);
  if (await claimKey(db, scope, requestHash, now, new Date(now.getTime() + ttlSeconds * 1000))) return null;
  const existing = await findRecord(db, scope);
  if (!existing) {
    // The competing record vanished between our insert and read (expired or abandoned): try once more.
    if (await claimKey(db, scope, requestHash, now, new Date(now.getTime() + ttlSeconds * 1000))) return null;
    throw serviceError('idempotency_request_in_flight');
  }
  if (existing.requestHash !== requestHash) throw serviceError('idempotency_key_reused');
  if (existing.state === 'in_flight') throw serviceError('idempotency_request_in_flight');
  return { status: existing.responseStatus!, body: existing.responseBody };
}

export async function finishIdempotent(scope: IdempotencyScope, response: StoredResponse): Promise<void> {
  await completeRecord(await getDb(), scope, response.status, response.body);
}

/** A failed execution (5xx) releases the key so the client may retry with it. */
export async function abandonIdempotent(scope: IdempotencyScope): Promise<void> {
  await releaseRecord(await getDb(), scope);
}
