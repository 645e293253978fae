/**
 * The two halves of durable delivery. Fan-out turns undispatched outbox events into deliveries for
 * the subscriptions of each event's audience. A delivery pass leases due deliveries (one minute,
 * reclaimable), sends each OUTSIDE any transaction, and records the outcome by the transition table,
 * only while it still holds the lease. Both are safe to run in several processes at once.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import { ANONYMOUS } from '@/lib/contract/actor';
import { getDb, inTransaction } from '@/lib/db';
import { logLine, postJson } from '@/lib/platform';
import { claimDueDeliveries, claimPendingEvents, audienceOf, insertDeliveries, markDispatched, recordOutcome, releaseLeases, type DeliveryRow } from './deliveries.repo';
import { deliveryHeaders, openWebhookSecret } from './signing';
import { findSubscriptions, markSubscriptionDisabled, type SubscriptionRow } from './subscriptions.repo';
import { ATTEMPT_TIMEOUT_MS, backoffMs, classify, LEASE_MS, transitionFor, type Classified } from './transitions';

/** The Standard Webhooks envelope of a delivery. */
export function envelope(type: string, at: Date, data: Record<string, unknown>) {
  return { type, timestamp: at.toISOString(), data };
}

/** A new delivery row, queued and due at `now`. */
export function newDelivery(webhookId: string, userId: string, eventId: string, payload: ReturnType<typeof envelope>, now: Date): DeliveryRow {
  return {
    id: randomUUID(),
    webhookId,
    userId,
    eventId,
    eventType: payload.type,
    payload,
    status: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    leasedUntil: null,
    leaseOwner: null,
    lastAttemptAt: null,
    lastFailureCode: null,
    lastResponseStatus: null,
    deliveredAt: null,
    createdAt: now,
  };
}

/** One batch of outbox events into deliveries; answers how many events it dispatched. */
export async function fanOut(now: Date, limit = 200): Promise<number> {
  return inTransaction(async (tx) => {
    const events = await claimPendingEvents(tx, limit);
    if (events.length === 0) return 0;
    const byId = new Map(events.map((event) => [event.id, event]));
    const audience = await audienceOf(
      tx,
      events.map((event) => event.id),
    );
    const rows = audience.map((a) => {
      const event = byId.get(a.event_id)!;
      return newDelivery(a.webhook_id, a.user_id, event.id, envelope(event.type, event.createdAt, event.payload), now);
    });
    await insertDeliveries(tx, rows);
    await markDispatched(
      tx,
      events.map((event) => event.id),
      now,
    );
    return events.length;
  });
}

/** Every pending outbox event, batch after batch. */
export async function fanOutAll(now: Date): Promise<number> {
  let total = 0;
  for (let n = await fanOut(now); n > 0; n = await fanOut(now)) total += n;
  return total;
}

export interface PassOptions {
  now: Date;
  /** Who holds the leases of this pass (unique per worker). */
  owner: string;
  limit: number;
  userId?: string;
  signal?: AbortSignal;
}

/** Leases due deliveries without sending them (a pass's first step; tests use it to play a worker that dies). */
export function claimDue(options: PassOptions): Promise<DeliveryRow[]> {
  return inTransaction((tx) =>
    claimDueDeliveries(tx, {
      now: options.now,
      leaseUntil: new Date(options.now.getTime() + LEASE_MS),
      owner: options.owner,
      limit: options.limit,
      userId: options.userId,
    }),
  );
}

/** Sends one leased delivery and records its outcome; answers the new state, or null when the lease was lost. */
export async function attempt(delivery: DeliveryRow, subscription: SubscriptionRow | undefined, options: PassOptions): Promise<string | null> {
  if (!subscription || subscription.status !== 'enabled') {
    // Disabled after this delivery was made: never sent, no attempt.
    const change = { ...settled(delivery), status: 'failed' as const, nextAttemptAt: null, lastFailureCode: 'subscription_disabled' };
    return (await inTransaction((tx) => recordOutcome(tx, delivery.id, options.owner, change, null))) ? 'failed' : null;
  }
  const body = JSON.stringify(delivery.payload);
  const sentAt = new Date();
  const headers = deliveryHeaders(openWebhookSecret(subscription.secretSealed), delivery.id, options.now, body);
  const result = await postJson(subscription.url, headers, body, { timeoutMs: ATTEMPT_TIMEOUT_MS, signal: options.signal });
  if ('failure' in result && result.failure === 'aborted') {
    // The worker is stopping: the lease goes back, nothing is counted.
    await inTransaction((tx) => releaseLeases(tx, options.owner, [delivery.id]));
    return null;
  }
  const outcome = classify(result);
  return record(delivery, subscription, outcome, result.durationMs, options, sentAt);
}

function settled(delivery: DeliveryRow) {
  return {
    attempts: delivery.attempts,
    lastAttemptAt: delivery.lastAttemptAt,
    lastResponseStatus: delivery.lastResponseStatus,
    deliveredAt: delivery.deliveredAt,
  };
}

async function record(delivery: DeliveryRow, subscription: SubscriptionRow, outcome: Classified, durationMs: number, options: PassOptions, sentAt: Date): Promise<string | null> {
  const attempts = delivery.attempts + 1;
  const transition = transitionFor(delivery.status, outcome.outcome, attempts);
  const now = options.now;
  const change = {
    status: transition.to,
    attempts,
    nextAttemptAt: transition.to === 'retrying' ? new Date(now.getTime() + backoffMs(attempts)) : null,
    lastAttemptAt: now,
    lastFailureCode: outcome.failureCode,
    lastResponseStatus: outcome.responseStatus,
    deliveredAt: transition.to === 'delivered' ? now : null,
  };
  const attemptRow = { deliveryId: delivery.id, attempt: attempts, attemptedAt: sentAt, responseStatus: outcome.responseStatus, failureCode: outcome.failureCode, durationMs };
  const held = await inTransaction(async (tx) => {
    if (!(await recordOutcome(tx, delivery.id, options.owner, change, attemptRow))) return false;
    if (transition.disablesSubscription && (await markSubscriptionDisabled(tx, subscription.id, now))) {
      await recordAudit(tx, { action: 'webhook.disabled', outcome: 'success', actor: ANONYMOUS, subject: { type: 'webhook', id: subscription.id }, data: { reason: 'endpoint_gone' }, at: now });
    }
    return true;
  });
  if (!held) logLine('warn', 'webhook.lease_lost', { delivery_id: delivery.id });
  return held ? transition.to : null;
}

/** One bounded pass: lease up to `limit` due deliveries and send them concurrently. Answers how many it leased. */
export async function deliverDue(options: PassOptions): Promise<number> {
  const claimed = await claimDue(options);
  if (claimed.length === 0) return 0;
  const subscriptions = new Map((await findSubscriptionsOf(claimed)).map((row) => [row.id, row]));
  await Promise.all(claimed.map((delivery) => attempt(delivery, subscriptions.get(delivery.webhookId), options)));
  return claimed.length;
}

async function findSubscriptionsOf(deliveries: DeliveryRow[]): Promise<SubscriptionRow[]> {
  return findSubscriptions(await getDb(), [...new Set(deliveries.map((d) => d.webhookId))]);
}
