import { gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { securityEventCounts } from '@/lib/db/schema';

/** One atomic upsert per event, so every instance adds to the same hourly row. */
export async function addSecurityEvent(db: Executor, kind: string, windowStart: Date): Promise<number> {
  const [row] = await db
    .insert(securityEventCounts)
    .values({ kind, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [securityEventCounts.kind, securityEventCounts.windowStart], set: { count: sql`${securityEventCounts.count} + 1` } })
    .returning({ count: securityEventCounts.count });
  return row!.count;
}

export async function selectSecurityEventCounts(db: Executor, since: Date) {
  return db
    .select({ kind: securityEventCounts.kind, windowStart: securityEventCounts.windowStart, count: securityEventCounts.count })
    .from(securityEventCounts)
    .where(gte(securityEventCounts.windowStart, since))
    .orderBy(securityEventCounts.windowStart, securityEventCounts.kind);
}

export async function deleteSecurityEventCountsBefore(db: Executor, before: Date): Promise<void> {
  await db.delete(securityEventCounts).where(lt(securityEventCounts.windowStart, before));
}
