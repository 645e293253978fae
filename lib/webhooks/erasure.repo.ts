import { eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { webhookSubscriptions } from '@/lib/db/schema';

/** The person's subscriptions, with their deliveries and attempts (foreign keys cascade within this context). */
export async function deleteSubscriptionsOf(db: Executor, userId: string): Promise<void> {
  await db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.userId, userId));
}
