import { getConfig } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import { consumeRateLimit } from '@/lib/platform';
import { RATE_LIMIT_BUCKETS, type RateLimitBucket } from '@/lib/contract/rate-limits';

export type RateHeaders = Record<string, string>;

export function scaledLimit(bucket: RateLimitBucket): number {
  return Math.max(1, Math.ceil(RATE_LIMIT_BUCKETS[bucket].limit * getConfig().rateLimitScale));
}

/**
 * Consumes one unit of `bucket` for `subject`. Returns the RateLimit headers (IETF httpapi draft,
 * structured fields) for the response, or throws 429 with Retry-After when the window is spent.
 */
export async function enforceRateLimit(bucket: RateLimitBucket, subject: string, now: Date): Promise<RateHeaders> {
  const policy = RATE_LIMIT_BUCKETS[bucket];
  const limit = scaledLimit(bucket);
  const decision = await consumeRateLimit(bucket, subject, limit, policy.windowSeconds, now);
  const headers: RateHeaders = {
    'RateLimit-Policy': `"${bucket}";q=${limit};w=${policy.windowSeconds}`,
    RateLimit: `"${bucket}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) {
    throw serviceError('rate_limited', `Try again in ${decision.resetSeconds} seconds.`, {
      headers: { ...headers, 'Retry-After': String(decision.resetSeconds) },
    });
  }
  return headers;
}
