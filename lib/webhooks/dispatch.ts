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
import { logLine, metrics, postJson } from '@/lib/platform';
import {
  audienceOf,
  claimDueDeliveries,
  claimPendingEvents,
  insertAttempts,
  insertDeliveries,
  markDispatched,
  releaseLeases,
  updateOutcomes,
  type AttemptRow,
  type DeliveryChange,
  type DeliveryRow,
} from './deliveries.repo';
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

type Sent =
  | { kind: 'unsent'; delivery: DeliveryRow }
  | { kind: 'aborted'; delivery: DeliveryRow }
  | { kind: 'sent'; delivery: DeliveryRow; subscriptionId: string; outcome: Classified; durationMs: number; sentAt: Date };

/** Sends one leased delivery, signed with the subscription's current secret (nothing is written here). */
async function send(delivery: DeliveryRow, subscription: SubscriptionRow | undefined, secret: string | null, options: PassOptions): Promise<Sent> {
  // Disabled after this delivery was made: never sent, no attempt.
  if (!subscription || subscription.status !== 'enabled' || !secret) return { kind: 'unsent', delivery };
  const body = JSON.stringify(delivery.payload);
  const sentAt = new Date();
  const result = await postJson(subscription.url, deliveryHeaders(secret, delivery.id, options.now, body), body, {
    timeoutMs: ATTEMPT_TIMEOUT_MS,
    signal: options.signal,
  });
  // The worker is stopping: the lease goes back, nothing is counted.
  if ('failure' in result && result.failure === 'aborted') return { kind: 'aborted', delivery };
  return { kind: 'sent', delivery, subscriptionId: subscription.id, outcome: classify(result), durationMs: result.durationMs, sentAt };
}

/** What the transition table makes of one send. */
function plan(sent: Exclude<Sent, { kind: 'aborted' }>, now: Date) {
  const { delivery } = sent;
  if (sent.kind === 'unsent') {
    const change: DeliveryChange = { ...unchanged(delivery), status: 'failed', nextAttemptAt: null, lastFailureCode: 'subscription_disabled' };
    return { change, attempt: null, disables: null };
  }
  const attempts = delivery.attempts + 1;
  const transition = transitionFor(delivery.status, sent.outcome.outcome, attempts);
  const change: DeliveryChange = {
    status: transition.to,
    attempts,
    nextAttemptAt: transition.to === 'retrying' ? new Date(now.getTime() + backoffMs(attempts)) : null,
    lastAttemptAt: now,
    lastFailureCode: sent.outcome.failureCode,
    lastResponseStatus: sent.outcome.responseStatus,
    deliveredAt: transition.to === 'delivered' ? now : null,
  };
  const attempt: AttemptRow = {
    deliveryId: delivery.id,
    attempt: attempts,
    attemptedAt: sent.sentAt,
    responseStatus: sent.outcome.responseStatus,
    failureCode: sent.outcome.failureCode,
    durationMs: sent.durationMs,
  };
  return { change, attempt, disables: transition.disablesSubscription ? sent.subscriptionId : null };
}

function unchanged(delivery: DeliveryRow) {
  return {
    attempts: delivery.attempts,
    lastAttemptAt: delivery.lastAttemptAt,
    lastResponseStatus: delivery.lastResponseStatus,
    deliveredAt: delivery.deliveredAt,
  };
}

/**
 * Records a pass's outcomes in ONE transaction (one commit for the batch, not one per delivery). Each
 * outcome is written only while this worker still holds the lease; answers each delivery's new state,
 * or null where the lease was lost (or given back).
 */
async function recordAll(sent: Sent[], options: PassOptions): Promise<(DeliveryChange['status'] | null)[]> {
  const now = options.now;
  const states = await inTransaction(async (tx) => {
    await releaseLeases(
      tx,
      options.owner,
      sent.filter((s) => s.kind === 'aborted').map((s) => s.delivery.id),
    );
    const plans = sent.map((item) => (item.kind === 'aborted' ? null : { id: item.delivery.id, ...plan(item, now) }));
    const written = await updateOutcomes(
      tx,
      options.owner,
      plans.flatMap((p) => (p ? [{ id: p.id, ...p.change }] : [])),
    );
    const held = plans.flatMap((p) => (p && written.has(p.id) ? [p] : []));
    for (const { disables } of held) {
      if (disables && (await markSubscriptionDisabled(tx, disables, now))) {
        await recordAudit(tx, {
          action: 'webhook.disabled',
          outcome: 'success',
          actor: ANONYMOUS,
          subject: { type: 'webhook', id: disables },
          data: { reason: 'endpoint_gone' },
          at: now,
        });
      }
    }
    const attempts = held.flatMap((p) => (p.attempt ? [p.attempt] : []));
    const result = plans.map((p) => (p && written.has(p.id) ? p.change.status : null));
    await insertAttempts(tx, attempts);
    return result;
  });
  sent.forEach((item, i) => {
    if (item.kind !== 'aborted' && states[i] === null) logLine('warn', 'webhook.lease_lost', { delivery_id: item.delivery.id });
  });
  return states;
}

function secretsOf(subscriptions: SubscriptionRow[]): Map<string, string> {
  return new Map(subscriptions.filter((s) => s.status === 'enabled').map((s) => [s.id, openWebhookSecret(s.secretSealed)]));
}

/** Sends leased deliveries concurrently and records the outcomes together; answers each new state (null: lease lost). */
export async function sendLeased(deliveries: DeliveryRow[], options: PassOptions): Promise<(DeliveryChange['status'] | null)[]> {
  const subscriptions = await findSubscriptions(await getDb(), [...new Set(deliveries.map((d) => d.webhookId))]);
  const byId = new Map(subscriptions.map((row) => [row.id, row]));
  const secrets = secretsOf(subscriptions);
  const sent = await Promise.all(deliveries.map((d) => send(d, byId.get(d.webhookId), secrets.get(d.webhookId) ?? null, options)));
  const states = await recordAll(sent, options);
  countOutcomes(sent, states);
  return states;
}

/** Attempts by the state they led to, and how long each POST took (only recorded outcomes count). */
function countOutcomes(sent: Sent[], states: (DeliveryChange['status'] | null)[]): void {
  const m = metrics();
  sent.forEach((one, i) => {
    const state = states[i];
    if (one.kind !== 'sent' || !state) return;
    m.webhookDeliveries.inc({ outcome: state });
    m.webhookAttemptDuration.observe(one.durationMs / 1000);
  });
}

/** One bounded pass: lease up to `limit` due deliveries, send them concurrently, record. Answers how many it leased. */
export async function deliverDue(options: PassOptions): Promise<number> {
  const claimed = await claimDue(options);
  if (claimed.length > 0) await sendLeased(claimed, options);
  return claimed.length;
}
