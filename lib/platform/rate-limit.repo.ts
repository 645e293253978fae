import { lt, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { rateLimitCounters } from '@/lib/db/schema';

/**
 * One atomic upsert per hit, so concurrent instances share the counter without a read-modify-write
 * race: a row from an older window is reset to 1, otherwise incremented.
 */
export async function hitCounter(
  db: Executor,
  bucket: string,
  subject: string,
  windowStart: Date,
  expiresAt: Date,
): Promise<number> {
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ bucket, subject, windowStart, count: 1, expiresAt })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.subject],
      set: {
        count: sql`case when ${rateLimitCounters.windowStart} = excluded.window_start then ${rateLimitCounters.count} + 1 else 1 end`,
        windowStart: sql`excluded.window_start`,
        expiresAt: sql`excluded.expires_at`,
      },
    })
    .returning({ count: rateLimitCounters.count });
  return row!.count;
}

export async function deleteExpiredCounters(db: Executor, now: Date): Promise<number> {
  const deleted = await db.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, now)).returning({ subject: rateLimitCounters.subject });
  return deleted.length;
}
