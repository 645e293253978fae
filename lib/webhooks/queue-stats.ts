import { getDb } from '@/lib/db';
import { dueQueueStats } from './deliveries.repo';

/** Deliveries due now and how long the oldest of them has waited (0 when none is due), for the metrics scrape. */
export async function webhookQueueStats(now: Date): Promise<{ due: number; oldestDueSeconds: number }> {
  const { due, oldestDueAt } = await dueQueueStats(await getDb(), now);
  return { due, oldestDueSeconds: oldestDueAt ? Math.max(0, (now.getTime() - oldestDueAt.getTime()) / 1000) : 0 };
}
