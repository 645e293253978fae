/**
 * What every answered operation leaves behind for operators: one access log line (request id,
 * operation id, status, duration, the kind of caller; never who) and the request count and latency
 * per operation and status class, plus the sign-in outcome of operations that sign in. Called once
 * per request by the pipeline, after its answer is made.
 */
import type { ServiceError } from '@/lib/contract/errors';
import type { AnyOperation } from '@/lib/contract/operation';
import { countSignIn, logLine, metrics, statusClass, type SignInOutcome } from '@/lib/platform';

export interface Answered {
  op: AnyOperation;
  requestId: string;
  status: number;
  startedAt: number;
  actorKind: string;
  failure: ServiceError | null;
}

function signInOutcome(status: number, failure: ServiceError | null): SignInOutcome | null {
  if (status < 300) return 'success';
  if (!failure) return null;
  if (failure.code === 'rate_limited') return 'rate_limited';
  if (failure.reason === 'locked') return 'locked';
  // A wrong secret: 401 (invalid_credentials, unauthenticated) or a wrong e-mail code (400 invalid_code).
  return failure.status === 401 || failure.code === 'invalid_code' ? 'failure' : null;
}

export function recordAnswer({ op, requestId, status, startedAt, actorKind, failure }: Answered): void {
  const seconds = (performance.now() - startedAt) / 1000;
  const labels = { operation: op.id, status_class: statusClass(status) };
  const m = metrics();
  m.requests.inc(labels);
  m.requestDuration.observe(labels, seconds);
  if (op.startsSession) {
    // Federated sign-ins always answer with a redirect: their outcome is counted where it is known.
    const outcome = signInOutcome(status, failure);
    if (outcome) countSignIn(op.startsSession, outcome);
  }
  logLine('info', 'access', {
    request_id: requestId,
    operation: op.id,
    method: op.method,
    status,
    duration_ms: Math.round(seconds * 10_000) / 10,
    actor: actorKind,
  });
}
