/**
 * The owner's side of deliveries: the log (metadata and a safe failure code only: never the payload,
 * the secret or a response body), the test event, a manual retry of a failed delivery, and an
 * on-demand pass (deliveries/process) for an owner who does not want to wait for the worker.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import type { Actor, SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { isUuid } from '@/lib/contract/ids';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { getConfig } from '@/lib/config';
import { getDb, inTransaction } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { TEST_EVENT_TYPE } from './terms';
import { findOwnedDelivery, insertDeliveries, listDeliveries, requeueDelivery, type DeliveryRow } from './deliveries.repo';
import { deliverDue, envelope, fanOutAll, newDelivery } from './dispatch';
import { ownedSubscription } from './subscriptions';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function deliveryView(row: DeliveryRow) {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: iso(row.nextAttemptAt),
    last_attempt_at: iso(row.lastAttemptAt),
    last_failure_code: row.lastFailureCode,
    last_response_status: row.lastResponseStatus,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listOwnDeliveries(
  actor: Actor & { userId: string },
  page: PageRequest,
  filter: { webhookId?: string },
): Promise<Page<ReturnType<typeof deliveryView>>> {
  // An id that is not a UUID matches nothing (the filter never reaches the database malformed).
  const rows =
    filter.webhookId && !isUuid(filter.webhookId) ? [] : await listDeliveries(await getDb(), actor.userId, filter.webhookId, page.after, page.limit + 1);
  const result = toPage(rows, page);
  return { ...result, items: result.items.map(deliveryView) };
}

/** Queues `identity.webhook.test` for one enabled subscription of the owner; the worker sends it, signed. */
export async function sendTestEvent(actor: Actor & { userId: string }, webhookId: string, now: Date, requestId: string): Promise<{ delivery_id: string }> {
  return inTransaction(async (tx) => {
    const subscription = await ownedSubscription(tx, actor.userId, webhookId, { enabled: true });
    const row = newDelivery(subscription.id, actor.userId, randomUUID(), envelope(TEST_EVENT_TYPE, now, { webhook_id: subscription.id }), now);
    await insertDeliveries(tx, [row]);
    await recordAudit(tx, {
      action: 'webhook.test_sent',
      outcome: 'success',
      actor,
      subject: { type: 'webhook', id: subscription.id },
      requestId,
      data: { delivery_id: row.id },
      at: now,
    });
    return { delivery_id: row.id };
  });
}

/**
 * A failed delivery back in the queue, due now. Its attempts are kept (the count and the attempt log
 * stay true), so the transition table applies unchanged: a retry of a delivery that already used its
 * eight attempts is one more attempt; one that failed on a 4xx earlier keeps its remaining budget.
 */
export async function retryDelivery(actor: SessionActor, deliveryId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    const row = isUuid(deliveryId) ? await findOwnedDelivery(tx, actor.userId, deliveryId) : null;
    if (!row) throw serviceError('not_found', 'You have no webhook delivery with this id.');
    if (row.status !== 'failed') throw serviceError('conflict', 'Only a failed delivery can be retried.');
    await ownedSubscription(tx, actor.userId, row.webhookId, { enabled: true });
    await requeueDelivery(tx, row.id, now);
    await recordAudit(tx, {
      action: 'webhook.delivery_retried',
      outcome: 'success',
      actor,
      subject: { type: 'webhook_delivery', id: row.id },
      requestId,
      data: { webhook_id: row.webhookId, event_type: row.eventType },
      at: now,
    });
  });
  return { delivery_id: deliveryId, status: 'queued' as const };
}

/**
 * deliveries/process: dispatch pending outbox events, then one bounded pass over the caller's own due
 * deliveries (sent now, by this request). Answers how many of them it took.
 */
export async function processOwnDeliveries(actor: SessionActor, now: Date) {
  await fanOutAll(now);
  const queued = await deliverDue({ now, owner: `request:${randomUUID()}`, limit: getConfig().webhookWorker.batch, userId: actor.userId });
  return { queued };
}
