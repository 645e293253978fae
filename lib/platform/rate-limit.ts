import { getDb } from '@/lib/db';
import { deleteExpiredCounters, hitCounter } from './rate-limit.repo';
import { shouldSweep } from './sweep';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

/** Fixed-window counter in Postgres, shared by every instance of the service. */
export async function consumeRateLimit(
  bucket: string,
  subject: string,
  limit: number,
  windowSeconds: number,
  now: Date,
): Promise<RateDecision> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const windowEnd = windowStart.getTime() + windowMs;
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
