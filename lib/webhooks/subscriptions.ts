/**
 * Webhook subscriptions (spec, Developer browser contract): an HTTPS endpoint that passed the SSRF
 * guard, a non-empty subset of the event catalogue, and a signing secret shown once (at creation and
 * at each rotation). Rotation replaces the secret at once: an attempt signs with the secret current
 * when it is sent, so a delivery already leased but not yet sent uses the new one.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import type { Actor, SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { isUuid } from '@/lib/contract/ids';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { getDb, inTransaction } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { checkDestination, type UrlRefusal } from '@/lib/platform';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './terms';
import { generateWebhookSecret, storedSecret } from './signing';
import {
  countEnabledSubscriptions,
  findOwnedSubscription,
  insertSubscription,
  listSubscriptions,
  lockSubscriptionOwner,
  markSubscriptionDisabled,
  replaceSecret,
  type SubscriptionRow,
} from './subscriptions.repo';

/** Enabled subscriptions per owner. */
export const MAX_SUBSCRIPTIONS = 20;

const iso = (date: Date) => date.toISOString();

export function webhookView(row: SubscriptionRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export async function listOwnWebhooks(actor: Actor & { userId: string }, page: PageRequest): Promise<Page<ReturnType<typeof webhookView>>> {
  const result = toPage(await listSubscriptions(await getDb(), actor.userId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map(webhookView) };
}

const REFUSALS: Record<UrlRefusal, string> = {
  invalid_url: 'The endpoint is not a valid URL.',
  control_characters: 'The endpoint must not contain spaces, line breaks or other control characters.',
  not_https: 'The endpoint must be an https:// URL.',
  credentials: 'The endpoint must not carry a user name or password.',
  fragment: 'The endpoint must not carry a #fragment.',
  too_long: 'The endpoint is longer than 2048 characters.',
  dns_refused: 'The endpoint host name does not resolve.',
  private_address: 'The endpoint resolves to a loopback, private, link-local or otherwise non-public address.',
};

/** The endpoint as it will be stored, shown and called (its serialised form), or a 400. */
export async function acceptedEndpoint(url: string): Promise<string> {
  const checked = await checkDestination(url);
  if ('href' in checked) return checked.href;
  const message = REFUSALS[checked.refusal];
  throw serviceError('invalid_request', message, { extras: { errors: [{ path: 'body.url', message }] } });
}

export interface NewWebhook {
  url: string;
  events: WebhookEventType[];
  description?: string;
}

export async function createWebhook(actor: SessionActor, input: NewWebhook, now: Date, requestId: string) {
  // Resolution happens before the transaction: no row is locked while DNS answers.
  const url = await acceptedEndpoint(input.url);
  const secret = generateWebhookSecret();
  const row: SubscriptionRow = {
    id: randomUUID(),
    userId: actor.userId,
    url,
    // Catalogue order, each event once.
    events: WEBHOOK_EVENT_TYPES.filter((type) => input.events.includes(type)),
    description: input.description ?? null,
    status: 'enabled',
    ...storedSecret(secret),
    secretRotatedAt: null,
    createdAt: now,
    updatedAt: now,
    disabledAt: null,
  };
  await inTransaction(async (tx) => {
    if (!(await lockSubscriptionOwner(tx, actor.userId))) throw serviceError('unauthenticated', 'Sign in first.');
    if ((await countEnabledSubscriptions(tx, actor.userId)) >= MAX_SUBSCRIPTIONS) {
      throw serviceError('conflict', `An account holds at most ${MAX_SUBSCRIPTIONS} enabled webhook subscriptions; disable one first.`);
    }
    await insertSubscription(tx, row);
    await recordAudit(tx, {
      action: 'webhook.created',
      outcome: 'success',
      actor,
      subject: { type: 'webhook', id: row.id },
      requestId,
      data: { events: row.events.join(' '), host: new URL(row.url).host },
      at: now,
    });
  });
  return { ...webhookView(row), secret };
}

/** The owner's subscription inside `tx`, locked; unknown or another owner's: 404; disabled: 409 when asked. */
export async function ownedSubscription(
  tx: Parameters<typeof findOwnedSubscription>[0],
  userId: string,
  webhookId: string,
  options: { enabled?: boolean } = {},
) {
  const row = isUuid(webhookId) ? await findOwnedSubscription(tx, userId, webhookId) : null;
  if (!row) throw serviceError('not_found', 'You have no webhook subscription with this id.');
  if (options.enabled && row.status !== 'enabled') throw serviceError('conflict', 'This webhook subscription is disabled.');
  return row;
}

export async function rotateWebhookSecret(actor: SessionActor, webhookId: string, now: Date, requestId: string) {
  const secret = generateWebhookSecret();
  const stored = storedSecret(secret);
  await inTransaction(async (tx) => {
    const row = await ownedSubscription(tx, actor.userId, webhookId, { enabled: true });
    await replaceSecret(tx, row.id, stored.secretHash, stored.secretSealed, now);
    await recordAudit(tx, { action: 'webhook.secret_rotated', outcome: 'success', actor, subject: { type: 'webhook', id: row.id }, requestId, at: now });
  });
  return { id: webhookId, secret };
}

/**
 * Disables a subscription: no new deliveries are made for it, and those still waiting are marked
 * failed with `subscription_disabled` (never sent). Disabling twice is a conflict.
 */
export async function disableWebhook(actor: SessionActor, webhookId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    const row = await ownedSubscription(tx, actor.userId, webhookId, { enabled: true });
    await markSubscriptionDisabled(tx, row.id, now);
    await recordAudit(tx, {
      action: 'webhook.disabled',
      outcome: 'success',
      actor,
      subject: { type: 'webhook', id: row.id },
      requestId,
      data: { reason: 'owner' },
      at: now,
    });
  });
  return { id: webhookId, status: 'disabled' as const };
}
