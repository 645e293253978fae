/**
 * Security events (ASVS V16.3.2, V16.3.3): every refusal that is a failed authentication or
 * authorization, a CSRF or Origin refusal, a spent rate limit, or part of a run of invalid inputs from
 * one client, becomes one structured log line and one count per kind and hour (lib/platform). The
 * pipeline calls this from its error path and after delegated (OAuth) answers; nothing else needs to.
 *
 * A line carries only what the service itself decided: the kind, the catalogued error code, the
 * status, the operation id, the request id and the keyed hash of the client address (the same key the
 * rate limits use, so both can be correlated). Never the request body, headers, credential, code,
 * e-mail address, full network address or the error's detail (which may quote the input).
 */
import type { ServiceError } from '@/lib/contract/errors';
import type { AnyOperation } from '@/lib/contract/operation';
import { consumeBucket, countSecurityEvent, logLine, metrics, type LogValue } from '@/lib/platform';
import { presentedNoCredential } from './auth';
import { clientKey } from './client-address';
import { describeForLog } from './problem';
import { RateLimitExceeded } from './rate-limit';

export const SECURITY_EVENT_KINDS = [
  'authentication_failed',
  'authorization_failed',
  'csrf_refused',
  'origin_refused',
  'rate_limited',
  'validation_probe',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** Invalid input is normal one at a time; only a run of it from one client is an event. */
type Classification = SecurityEventKind | 'invalid_input';

/** Our catalogued codes. Absent codes (not_found, conflict, 5xx ...) are not security events. */
const KIND_OF_CODE: Record<string, Classification> = {
  unauthenticated: 'authentication_failed',
  invalid_credentials: 'authentication_failed',
  // A wrong e-mail code is a wrong secret, like a wrong password.
  invalid_code: 'authentication_failed',
  forbidden: 'authorization_failed',
  insufficient_scope: 'authorization_failed',
  step_up_required: 'authorization_failed',
  csrf_failed: 'csrf_refused',
  origin_mismatch: 'origin_refused',
  rate_limited: 'rate_limited',
  invalid_request: 'invalid_input',
  invalid_pagination: 'invalid_input',
  unsupported_api_version: 'invalid_input',
  payload_too_large: 'invalid_input',
  unsupported_media_type: 'invalid_input',
  idempotency_key_reused: 'invalid_input',
};

/** OAuth error codes (RFC 6749 §5.2, RFC 6750 §3.1, RFC 7591 §3.2.2) the delegate answers with. */
const KIND_OF_OAUTH_ERROR: Record<string, Classification> = {
  invalid_client: 'authentication_failed',
  invalid_grant: 'authentication_failed',
  invalid_token: 'authentication_failed',
  unauthorized_client: 'authorization_failed',
  insufficient_scope: 'authorization_failed',
  invalid_request: 'invalid_input',
  invalid_scope: 'invalid_input',
  invalid_target: 'invalid_input',
  unsupported_grant_type: 'invalid_input',
  unsupported_response_type: 'invalid_input',
  invalid_redirect_uri: 'invalid_input',
  invalid_client_metadata: 'invalid_input',
};

const KIND_OF_STATUS: Record<number, Classification> = { 401: 'authentication_failed', 403: 'authorization_failed', 429: 'rate_limited' };

interface Refusal {
  classification: Classification;
  code: string;
  status: number;
  /** The rate-limit bucket that was spent (ours: a name from lib/contract/rate-limits.ts). */
  bucket?: string;
}

function refusalOf(error: ServiceError): Refusal | null {
  const classification = KIND_OF_CODE[error.code];
  if (!classification) return null;
  return { classification, code: error.code, status: error.status, bucket: error instanceof RateLimitExceeded ? error.bucket : undefined };
}

/** The OAuth `error` of a delegated JSON answer; the body is read from a clone, the answer is untouched. */
async function oauthErrorOf(response: Response): Promise<string | null> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return null;
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : null;
  } catch {
    return null;
  }
}

async function delegatedRefusalOf(response: Response): Promise<Refusal | null> {
  if (response.status < 400 || response.status >= 500) return null;
  const error = await oauthErrorOf(response);
  // Only names we know are logged: the delegate's answer is not ours to vouch for.
  const known = error !== null && Object.hasOwn(KIND_OF_OAUTH_ERROR, error);
  const classification = (known ? KIND_OF_OAUTH_ERROR[error] : undefined) ?? KIND_OF_STATUS[response.status];
  return classification ? { classification, code: known ? error : `http_${response.status}`, status: response.status } : null;
}

/** Past the bucket's limit, each further invalid input from the client is a probing event. */
async function isProbing(client: string, now: Date): Promise<boolean> {
  return !(await consumeBucket('validation_failures', `client:${client}`, now)).allowed;
}

async function record(op: AnyOperation, request: Request, refusal: Refusal, requestId: string, now: Date): Promise<void> {
  // Recording must never change the answer: a failure here is logged and the refusal goes out as is.
  try {
    const client = clientKey(request.headers);
    if (refusal.classification === 'invalid_input' && !(await isProbing(client, now))) return;
    const kind: SecurityEventKind = refusal.classification === 'invalid_input' ? 'validation_probe' : refusal.classification;
    metrics().securityEvents.inc({ kind });
    let countThisHour: number | null = null;
    try {
      countThisHour = await countSecurityEvent(kind, now);
    } catch (error) {
      logLine('error', 'security_event_count_failed', { kind, request_id: requestId, error: describeForLog(error) }, now);
    }
    const fields: Record<string, LogValue> = {
      kind,
      code: refusal.code,
      status: refusal.status,
      operation: op.id,
      request_id: requestId,
      client,
      count_this_hour: countThisHour,
      ...(refusal.bucket ? { bucket: refusal.bucket } : {}),
    };
    logLine('warn', 'security', fields, now);
  } catch (error) {
    logLine('error', 'security_event_failed', { request_id: requestId, error: describeForLog(error) }, now);
  }
}

/** Pipeline error path: the refusal the caller is about to receive. */
export async function recordRefusal(op: AnyOperation, request: Request, error: ServiceError, requestId: string, now: Date): Promise<void> {
  // A signed-out visitor asking for their session failed nothing: only presented credentials count.
  if (presentedNoCredential(error)) return;
  const refusal = refusalOf(error);
  if (refusal) await record(op, request, refusal, requestId, now);
}

/** Delegated operations answer in the OAuth format: their refusals are read from the answer. */
export async function recordDelegatedAnswer(op: AnyOperation, request: Request, response: Response, requestId: string, now: Date): Promise<void> {
  const refusal = await delegatedRefusalOf(response);
  if (refusal) await record(op, request, refusal, requestId, now);
}
