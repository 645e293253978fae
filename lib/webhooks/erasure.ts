import type { Executor } from '@/lib/db';
import { deleteSubscriptionsOf } from './erasure.repo';

/** The webhooks context's part of an erasure: the person's endpoints, secrets and delivery log. */
export async function eraseWebhooksOf(tx: Executor, userId: string): Promise<void> {
  await deleteSubscriptionsOf(tx, userId);
}
