import { createHash, randomUUID } from 'node:crypto';
import { serviceError } from '@/lib/contract/errors';
import { openSecret, sealSecret } from './encryption';
import { shouldSweep } from './sweep';
import { getDb } from '@/lib/db';
import {
  claimKey,
  completeClaim,
  deleteExpiredRecord,
  deleteExpiredRecords,
  findRecord,
  releaseClaim,
  takeOverClaim,
  type IdempotencyScope,
} from './idempotency.repo';

export type { IdempotencyScope };

/**
 * How long an execution holds its key before a retry may take it over. Long enough for any
 * operation we run (upstream calls time out after 15 s), short enough that a crashed instance does
 * not block a client's retries for the record's whole lifetime. An original that is merely slow and
 * loses its claim rolls back (see completeIdempotent), so a takeover is never a double execution.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 60;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** The right to run an execution for a key; completing or releasing it needs the token. */
export interface IdempotencyClaim {
  scope: IdempotencyScope;
  token: string;
}

export type IdempotencyStart = { replay: StoredResponse } | { claim: IdempotencyClaim };

/** Idempotency-Key values: 1-255 visible ASCII characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return /^[\x21-\x7e]{1,255}$/.test(key);
}

export function hashRequest(method: string, path: string, body: string): string {
  return createHash('sha256').update(`${method}\n${path}\n${body}`).digest('base64url');
}

const inFlight = () => serviceError('idempotency_request_in_flight');

/**
 * Stored answers are sealed (AES-GCM under DATA_ENCRYPTION_KEY, bound to their scope), never kept in
 * clear: an answer may carry a one-time secret (a new API key, client secret or webhook signing
 * secret) that a replay must give back, and a secret the service must recover is encrypted at rest.
 * The scope in the associated data keeps a sealed answer from being replayed under another key.
 */
const SEALED_FIELD = 'sealed_response';
const purposeOf = (scope: IdempotencyScope) => `idempotency-response\n${scope.principal}\n${scope.operationId}\n${scope.key}`;

function sealBody(scope: IdempotencyScope, body: unknown): Record<string, string> {
  return { [SEALED_FIELD]: sealSecret(JSON.stringify(body ?? null), purposeOf(scope)) };
}

/** Records written before answers were sealed (they live one TTL at most) are read as they are. */
function openBody(scope: IdempotencyScope, stored: unknown): unknown {
  const sealed = stored && typeof stored === 'object' ? (stored as Record<string, unknown>)[SEALED_FIELD] : undefined;
  return typeof sealed === 'string' ? JSON.parse(openSecret(sealed, purposeOf(scope))) : stored;
}

/**
 * Starts an idempotent execution: a stored response to replay, or a claim on the key (the caller then
 * runs the operation and completes the claim inside the operation's transaction, or releases it).
 * Same key + different body: 422. Same key while another execution holds a live lease: 409. A lease
 * that has run out (the holder crashed or is stuck) is taken over.
 */
export async function beginIdempotent(scope: IdempotencyScope, requestHash: string, now: Date, ttlSeconds: number): Promise<IdempotencyStart> {
  const db = await getDb();
  if (shouldSweep()) await deleteExpiredRecords(db, now);
  else await deleteExpiredRecord(db, scope, now);
  const token = randomUUID();
  const leaseExpiresAt = new Date(now.getTime() + IDEMPOTENCY_LEASE_SECONDS * 1000);
  const claim = { requestHash, token, now, leaseExpiresAt, expiresAt: new Date(now.getTime() + ttlSeconds * 1000) };
  if (await claimKey(db, scope, claim)) return { claim: { scope, token } };
  const existing = await findRecord(db, scope);
  if (!existing) {
    // The competing record vanished between our insert and read (expired or released): try once more.
    if (await claimKey(db, scope, claim)) return { claim: { scope, token } };
    throw inFlight();
  }
  if (existing.requestHash !== requestHash) throw serviceError('idempotency_key_reused');
  if (existing.state === 'completed') return { replay: { status: existing.responseStatus!, body: openBody(scope, existing.responseBody) } };
  if (existing.leaseExpiresAt !== null && existing.leaseExpiresAt > now) throw inFlight();
  if (await takeOverClaim(db, scope, { previousToken: existing.claimToken, token, now, leaseExpiresAt })) return { claim: { scope, token } };
  throw inFlight();
}

/**
 * Stores the answer. Call it inside the operation's own transaction: the answer then exists exactly
 * when the operation's writes do. When the claim was taken over meanwhile, this throws 409 and the
 * caller must roll the operation back: the execution that took over is the one that counts.
 */
export async function completeIdempotent(claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
  if (!(await completeClaim(await getDb(), claim.scope, claim.token, response.status, sealBody(claim.scope, response.body)))) {
    throw serviceError(
      'idempotency_request_in_flight',
      'A retry with this Idempotency-Key took over after this request held it too long; this request was rolled back.',
    );
  }
}

/** A failed execution (5xx, nothing committed) frees the key so the client may retry with it. */
export async function releaseIdempotent(claim: IdempotencyClaim): Promise<void> {
  await releaseClaim(await getDb(), claim.scope, claim.token);
}
