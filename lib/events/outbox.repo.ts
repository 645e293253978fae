import type { Executor } from '@/lib/db';
import { outboxEvents } from '@/lib/db/schema';

export type NewOutboxEvent = typeof outboxEvents.$inferInsert;

export async function insertOutboxEvent(db: Executor, event: NewOutboxEvent): Promise<void> {
  await db.insert(outboxEvents).values(event);
}
