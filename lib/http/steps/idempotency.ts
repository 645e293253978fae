/**
 * Pipeline step 11, Idempotency-Key: a repeated key replays the stored answer; a new one is claimed
 * for this execution, which then runs with its stored answer in one transaction
 * (idempotent-execution.ts). Client errors are final for the key; a server failure frees it.
 */
import { getConfig } from '@/lib/config';
import { principalOf } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { beginIdempotent, hashRequest, isValidIdempotencyKey, type IdempotencyClaim, type StoredResponse } from '@/lib/platform';
import { executeIdempotently } from '../idempotent-execution';
import { errorBody, surfaceOf } from '../surfaces';
import { established, jsonAnswer, refusal, type Flow, type Step } from './flow';

/** A presented key, refused unless it is one the idempotency store can hold. */
export function checkedIdempotencyKey(key: string): string {
  if (!isValidIdempotencyKey(key)) throw serviceError('invalid_request', 'Idempotency-Key must be 1-255 visible ASCII characters.');
  return key;
}

async function replayOrClaim(flow: Flow): Promise<Response | void> {
  const { op, request } = flow;
  const presented = request.headers.get('idempotency-key');
  if (op.idempotency === 'required' && presented === null) throw serviceError('idempotency_key_required');
  if (op.idempotency === 'none' || presented === null) return;
  const key = checkedIdempotencyKey(presented);
  const scope = { principal: principalOf(established(flow.actor, 'authentication')), operationId: op.id, key };
  const started = await beginIdempotent(scope, hashRequest(op.method, flow.url.pathname, flow.bodyText), flow.now, getConfig().ttl.idempotencyRecord);
  if ('replay' in started) return jsonAnswer(flow, started.replay.status, started.replay.body, { 'Idempotent-Replayed': 'true' });
  flow.claim = started.claim;
}

export const idempotencyStep: Step = { name: 'idempotency', run: replayOrClaim };

/** An execution's answer, and what to store for its key. */
export interface Executed {
  response: Response;
  stored: StoredResponse;
}

/** Runs the execution under the claimed key: its writes and its stored answer commit together. */
export function executeClaimed(flow: Flow, claim: IdempotencyClaim, execute: () => Promise<Executed>): Promise<Response> {
  return executeIdempotently(claim, async () => {
    try {
      const { stored, response } = await execute();
      return { result: response, store: stored };
    } catch (error) {
      const { failure, response } = await refusal(flow, error);
      // Client errors are final for this key; a server failure rolls back and frees it for a retry.
      return {
        result: response,
        store: failure.status >= 500 ? null : { status: failure.status, body: errorBody(surfaceOf(flow.op.path), failure, flow.requestId) },
      };
    }
  });
}
