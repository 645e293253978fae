import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { rateLimitCounters } from '@/lib/db/schema';

/**
 * One atomic upsert per hit, so concurrent instances share the counter without a read-modify-write
 * race: a row from an older window is reset to 1, otherwise incremented.
 */
export async function hitCounter(db: Executor, bucket: string, subject: string, windowStart: Date, expiresAt: Date): Promise<number> {
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

/** Takes one hit back, only within the window it was counted in (a new window already started afresh). */
export async function releaseHit(db: Executor, bucket: string, subject: string, windowStart: Date): Promise<void> {
  await db
    .update(rateLimitCounters)
    .set({ count: sql`${rateLimitCounters.count} - 1` })
    .where(
      and(
        eq(rateLimitCounters.bucket, bucket),
        eq(rateLimitCounters.subject, subject),
        eq(rateLimitCounters.windowStart, windowStart),
        gt(rateLimitCounters.count, 0),
      ),
    );
}

export async function deleteExpiredCounters(db: Executor, now: Date): Promise<number> {
  const deleted = await db.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, now)).returning({ subject: rateLimitCounters.subject });
  return deleted.length;
}
