/**
 * Webhooks (spec, Developer browser and bearer contracts): the browser manages the owner's
 * subscriptions and deliveries with a session and a recent step-up; the bearer surface reads them and
 * sends a test event (identity.webhooks.test, with a required Idempotency-Key).
 */
import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { defineCollection, defineOperation, type AnyOperation, type AuthTerm } from '@/lib/contract/operation';
import { WEBHOOK_EVENT_TYPES } from './catalogue';
import { DELIVERY_SCHEMA, listOwnDeliveries, processOwnDeliveries, retryDelivery, sendTestEvent } from './deliveries';
import { createWebhook, disableWebhook, listOwnWebhooks, rotateWebhookSecret } from './subscriptions';

const TAG = 'Developer';
const BEARER_TAG = 'Developer (bearer)';
const STEP_UP: AuthTerm = { kind: 'session', stepUp: { methods: ['passkey', 'password'] } };
const READ: AuthTerm = { kind: 'bearer', accepts: ['api_key', 'oauth'], scopes: ['identity.developer.read'] };

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
    tag: TAG,
    summary: "The caller's webhook subscriptions (never the signing secret), newest first",
    auth: STEP_UP,
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
    tag: TAG,
    summary: 'Subscribe an HTTPS endpoint to events of the catalogue; `secret` (whsec_...) is in this answer only',
    auth: STEP_UP,
    origin: 'required',
    // No Idempotency-Key: a stored answer for replay would keep the secret in the database.
    idempotency: 'none',
    body: z.strictObject({
      url: z.string().min(1).max(2048),
      events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length),
      description: z.string().trim().min(1).max(200).optional(),
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
    tag: TAG,
    summary: 'Queue a signed identity.webhook.test event for one of your subscriptions',
    auth: STEP_UP,
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
    tag: TAG,
    summary: 'Replace the signing secret at once; the new `secret` is in this answer only',
    auth: STEP_UP,
    origin: 'required',
    idempotency: 'none',
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
    tag: TAG,
    summary: 'Disable a subscription: nothing more is sent to it, deliveries still waiting are marked failed',
    auth: STEP_UP,
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
    tag: TAG,
    summary: 'Delivery metadata and safe failure codes (never a payload, secret or response body), newest first',
    auth: STEP_UP,
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
    tag: TAG,
    summary: 'Dispatch pending events and send your due deliveries now (one bounded pass); `queued` counts them',
    auth: STEP_UP,
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
    tag: TAG,
    summary: 'Queue one of your failed deliveries again, due now (its attempt history is kept)',
    auth: STEP_UP,
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
    tag: BEARER_TAG,
    summary: "The credential owner's webhook subscriptions; the envelope names the credential kind and its scopes",
    auth: READ,
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
    tag: BEARER_TAG,
    summary: "The credential owner's webhook deliveries (metadata and safe failure codes only)",
    auth: READ,
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
    tag: BEARER_TAG,
    summary: 'Queue a signed identity.webhook.test event for one of the credential owner’s subscriptions',
    auth: { kind: 'bearer', accepts: ['api_key', 'oauth'], scopes: ['identity.webhooks.test'] },
    origin: 'none',
    idempotency: 'required',
    body: webhookId,
    successStatus: 202,
    errorStatuses: [404, 409],
    response: testResponse,
    handler: ({ actor, body, now, requestId }) => sendTestEvent(actorOfKind(actor, 'bearer'), body.webhook_id, now, requestId),
  }),
];
