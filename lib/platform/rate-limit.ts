import { getConfig } from '@/lib/config';
import { RATE_LIMIT_BUCKETS, type RateLimitBucket } from '@/lib/contract/rate-limits';
import { getDb } from '@/lib/db';
import { deleteExpiredCounters, hitCounter, releaseHit } from './rate-limit.repo';
import { shouldSweep } from './sweep';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

/** The fixed window `now` falls in: windows are aligned to multiples of their length since the epoch. */
function windowAt(windowSeconds: number, now: Date): { windowStart: Date; windowEnd: number } {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  return { windowStart, windowEnd: windowStart.getTime() + windowMs };
}

/** Fixed-window counter in Postgres, shared by every instance of the service. */
export async function consumeRateLimit(bucket: string, subject: string, limit: number, windowSeconds: number, now: Date): Promise<RateDecision> {
  const { windowStart, windowEnd } = windowAt(windowSeconds, now);
  const db = await getDb();
  const count = await hitCounter(db, bucket, subject, windowStart, new Date(windowEnd));
  if (shouldSweep()) await deleteExpiredCounters(db, now);
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowEnd - now.getTime()) / 1000)),
  };
}

/** A named bucket's limit (lib/contract/rate-limits.ts) under RATE_LIMIT_SCALE, never below one. */
export function scaledLimit(bucket: RateLimitBucket): number {
  return Math.max(1, Math.ceil(RATE_LIMIT_BUCKETS[bucket].limit * getConfig().rateLimitScale));
}

/** Consumes one unit of a named bucket for `subject`, with the bucket's scaled limit and window. */
export function consumeBucket(bucket: RateLimitBucket, subject: string, now: Date): Promise<RateDecision> {
  return consumeRateLimit(bucket, subject, scaledLimit(bucket), RATE_LIMIT_BUCKETS[bucket].windowSeconds, now);
}

/**
 * Gives back one unit of the current window, for a use that was counted before its outcome was known
 * and turned out not to count (a right e-mail code: only wrong ones spend the guess budget).
 */
export async function refundRateLimit(bucket: string, subject: string, windowSeconds: number, now: Date): Promise<void> {
  await releaseHit(await getDb(), bucket, subject, windowAt(windowSeconds, now).windowStart);
}
