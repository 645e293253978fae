import { ServiceError, serviceError } from '@/lib/contract/errors';
import { consumeBucket, metrics } from '@/lib/platform';
import { RATE_LIMIT_BUCKETS, type RateLimitBucket } from '@/lib/contract/rate-limits';

export type RateHeaders = Record<string, string>;

/** A 429 that remembers which bucket was spent, for the security event; the answer does not name it. */
export class RateLimitExceeded extends ServiceError {
  constructor(
    readonly bucket: RateLimitBucket,
    resetSeconds: number,
    headers: RateHeaders,
  ) {
    const { status, code, title, detail } = serviceError('rate_limited', `Try again in ${resetSeconds} seconds.`);
    super(status, code, title, detail, {}, { ...headers, 'Retry-After': String(resetSeconds) });
  }
}

/** Every refusal of a spent bucket goes through here: counted once, by bucket, then thrown. */
function refuse(bucket: RateLimitBucket, resetSeconds: number, headers: RateHeaders): never {
  metrics().rateLimitRefusals.inc({ bucket });
  throw new RateLimitExceeded(bucket, resetSeconds, headers);
}

/**
 * Consumes one unit of a client bucket (the caller's own network address). Returns the RateLimit
 * headers (IETF httpapi draft, structured fields) for the response, or throws 429 with Retry-After and
 * the same headers when the window is spent.
 */
export async function enforceClientLimit(bucket: RateLimitBucket, client: string, now: Date): Promise<RateHeaders> {
  const decision = await consumeBucket(bucket, `client:${client}`, now);
  const headers: RateHeaders = {
    'RateLimit-Policy': `"${bucket}";q=${decision.limit};w=${RATE_LIMIT_BUCKETS[bucket].windowSeconds}`,
    RateLimit: `"${bucket}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) refuse(bucket, decision.resetSeconds, headers);
  return headers;
}

/**
 * Consumes one unit of a subject bucket (an e-mail address, an account: something anyone can name).
 * Its use is never told in headers: `"mail_per_address";r=247` against `r=249` for a fresh address
 * would tell a stranger how much an address was used lately, and so that it has an account. A spent
 * subject bucket answers 429 with Retry-After only (docs/decisions.md).
 */
export async function enforceSubjectLimit(bucket: RateLimitBucket, subject: string, now: Date): Promise<void> {
  const decision = await consumeBucket(bucket, `subject:${subject}`, now);
  if (!decision.allowed) refuse(bucket, decision.resetSeconds, {});
}
