/**
 * Webhooks (spec, Developer browser and bearer contracts): the browser manages the owner's
 * subscriptions and deliveries with a session and a recent step-up; the bearer surface reads them and
 * sends a test event (identity.webhooks.test, with a required Idempotency-Key).
 */
import { DEVELOPER_BEARER, DEVELOPER_BEARER_TAG, DEVELOPER_STEP_UP, DEVELOPER_TAG } from '@/lib/contract/developer-terms';
import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { defineCollection, defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { oneLineText } from '@/lib/contract/text';
import { WEBHOOK_EVENT_TYPES } from './catalogue';
import { DELIVERY_SCHEMA, listOwnDeliveries, processOwnDeliveries, retryDelivery, sendTestEvent } from './deliveries';
import { createWebhook, disableWebhook, listOwnWebhooks, rotateWebhookSecret } from './subscriptions';

const webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  status: z.enum(['enabled', 'disabled']),
  created_at: z.string(),
  updated_at: z.string(),
});

const delivery = DELIVERY_SCHEMA;

const webhookId = z.strictObject({ webhook_id: z.string().min(1).max(100) });
const deliveriesQuery = z.strictObject({ webhook_id: z.string().min(1).max(100).optional() });
const testResponse = z.object({ delivery_id: z.string() });

export const webhookOperations: AnyOperation[] = [
  defineCollection({
    id: 'listWebhooks',
    method: 'GET',
    path: '/api/developer/webhooks',
    tag: DEVELOPER_TAG,
    summary: "The caller's webhook subscriptions (never the signing secret), newest first",
    auth: DEVELOPER_STEP_UP,
    origin: 'if-present',
    idempotency: 'none',
    collection: 'webhooks',
    item: webhook,
    handler: ({ actor, page }) => listOwnWebhooks(actorOfKind(actor, 'session'), page),
  }),
  defineOperation({
    id: 'createWebhook',
    method: 'POST',
    path: '/api/developer/webhooks',
    tag: DEVELOPER_TAG,
    summary: 'Subscribe an HTTPS endpoint to events of the catalogue; `secret` (whsec_...) is in this answer only',
    auth: DEVELOPER_STEP_UP,
    origin: 'required',
    // A retry with the same Idempotency-Key gets the same one-time secret back: the stored answer is sealed.
    idempotency: 'optional',
    body: z.strictObject({
      url: z.string().min(1).max(2048),
      events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length),
      description: oneLineText(200).optional(),
    }),
    successStatus: 201,
    errorStatuses: [409],
    response: webhook.extend({ secret: z.string() }),
    handler: ({ actor, body, now, requestId }) => createWebhook(actorOfKind(actor, 'session'), body, now, requestId),
  }),
  defineOperation({
    id: 'testWebhook',
    method: 'POST',
    path: '/api/developer/webhooks/test',
    tag: DEVELOPER_TAG,
    summary: 'Queue a signed identity.webhook.test event for one of your subscriptions',
    auth: DEVELOPER_STEP_UP,
    origin: 'required',
    idempotency: 'optional',
    body: webhookId,
    successStatus: 202,
    errorStatuses: [404, 409],
    response: testResponse,
    handler: ({ actor, body, now, requestId }) => sendTestEvent(actorOfKind(actor, 'session'), body.webhook_id, now, requestId),
  }),
  defineOperation({
    id: 'rotateWebhookSecret',
    method: 'POST',
    path: '/api/developer/webhooks/rotate',
    tag: DEVELOPER_TAG,
    summary: 'Replace the signing secret at once; the new `secret` is in this answer only',
    auth: DEVELOPER_STEP_UP,
    origin: 'required',
    // A retried rotation gets the same new secret back: the stored answer is sealed.
    idempotency: 'optional',
    body: webhookId,
    successStatus: 200,
    errorStatuses: [404, 409],
    response: z.object({ id: z.string(), secret: z.string() }),
    handler: ({ actor, body, now, requestId }) => rotateWebhookSecret(actorOfKind(actor, 'session'), body.webhook_id, now, requestId),
  }),
  defineOperation({
    id: 'disableWebhook',
    method: 'POST',
    path: '/api/developer/webhooks/disable',
    tag: DEVELOPER_TAG,
    summary: 'Disable a subscription: nothing more is sent to it, deliveries still waiting are marked failed',
    auth: DEVELOPER_STEP_UP,
    origin: 'required',
    idempotency: 'optional',
    body: webhookId,
    successStatus: 200,
    errorStatuses: [404, 409],
    response: z.object({ id: z.string(), status: z.literal('disabled') }),
    handler: ({ actor, body, now, requestId }) => disableWebhook(actorOfKind(actor, 'session'), body.webhook_id, now, requestId),
  }),
  defineCollection({
    id: 'listWebhookDeliveries',
    method: 'GET',
    path: '/api/developer/webhooks/deliveries',
    tag: DEVELOPER_TAG,
    summary: 'Delivery metadata and safe failure codes (never a payload, secret or response body), newest first',
    auth: DEVELOPER_STEP_UP,
    origin: 'if-present',
    idempotency: 'none',
    query: deliveriesQuery,
    collection: 'deliveries',
    item: delivery,
    handler: ({ actor, page, query }) => listOwnDeliveries(actorOfKind(actor, 'session'), page, { webhookId: query.webhook_id }),
  }),
  defineOperation({
    id: 'processWebhookDeliveries',
    method: 'POST',
    path: '/api/developer/webhooks/deliveries/process',
    tag: DEVELOPER_TAG,
    summary: 'Dispatch pending events and send your due deliveries now (one bounded pass); `queued` counts them',
    auth: DEVELOPER_STEP_UP,
    origin: 'required',
    idempotency: 'none',
    successStatus: 200,
    response: z.object({ queued: z.number().int() }),
    handler: ({ actor, now }) => processOwnDeliveries(actorOfKind(actor, 'session'), now),
  }),
  defineOperation({
    id: 'retryWebhookDelivery',
    method: 'POST',
    path: '/api/developer/webhooks/deliveries/retry',
    tag: DEVELOPER_TAG,
    summary: 'Queue one of your failed deliveries again, due now (its attempt history is kept)',
    auth: DEVELOPER_STEP_UP,
    origin: 'required',
    idempotency: 'optional',
    body: z.strictObject({ delivery_id: z.string().min(1).max(100) }),
    successStatus: 202,
    errorStatuses: [404, 409],
    response: z.object({ delivery_id: z.string(), status: z.literal('queued') }),
    handler: ({ actor, body, now, requestId }) => retryDelivery(actorOfKind(actor, 'session'), body.delivery_id, now, requestId),
  }),
  defineCollection({
    id: 'listBearerWebhooks',
    method: 'GET',
    path: '/api/v1/developer/webhooks',
    tag: DEVELOPER_BEARER_TAG,
    summary: "The credential owner's webhook subscriptions; the envelope names the credential kind and its scopes",
    auth: DEVELOPER_BEARER('identity.developer.read'),
    origin: 'none',
    idempotency: 'none',
    collection: 'webhooks',
    item: webhook,
    handler: ({ actor, page }) => listOwnWebhooks(actorOfKind(actor, 'bearer'), page),
  }),
  defineCollection({
    id: 'listBearerWebhookDeliveries',
    method: 'GET',
    path: '/api/v1/developer/webhooks/deliveries',
    tag: DEVELOPER_BEARER_TAG,
    summary: "The credential owner's webhook deliveries (metadata and safe failure codes only)",
    auth: DEVELOPER_BEARER('identity.developer.read'),
    origin: 'none',
    idempotency: 'none',
    query: deliveriesQuery,
    collection: 'deliveries',
    item: delivery,
    handler: ({ actor, page, query }) => listOwnDeliveries(actorOfKind(actor, 'bearer'), page, { webhookId: query.webhook_id }),
  }),
  defineOperation({
    id: 'testBearerWebhook',
    method: 'POST',
    path: '/api/v1/developer/webhooks/test',
    tag: DEVELOPER_BEARER_TAG,
    summary: 'Queue a signed identity.webhook.test event for one of the credential owner’s subscriptions',
    auth: DEVELOPER_BEARER('identity.webhooks.test'),
    origin: 'none',
    idempotency: 'required',
    body: webhookId,
    successStatus: 202,
    errorStatuses: [404, 409],
    response: testResponse,
    handler: ({ actor, body, now, requestId }) => sendTestEvent(actorOfKind(actor, 'bearer'), body.webhook_id, now, requestId),
  }),
];
