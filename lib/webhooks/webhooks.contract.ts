/**
 * Webhooks (spec, Developer browser and bearer contracts): the browser manages the owner's
 * subscriptions and deliveries with a session and a recent step-up; the bearer surface reads them and
 * sends a test event (identity.webhooks.test, with a required Idempotency-Key).
 */
import { z } from 'zod';
import { DEVELOPER_BEARER, DEVELOPER_BEARER_TAG, DEVELOPER_STEP_UP, DEVELOPER_TAG } from '@/lib/contract/developer-terms';
import { oneLineText } from '@/lib/contract/text';
import { collectionContract, resourceContract } from '@/lib/contract/wire';
import { WEBHOOK_EVENT_TYPES } from './terms';

const webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  status: z.enum(['enabled', 'disabled']),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A delivery on the wire (the API's log and the MCP list_webhook_deliveries tool): never a payload or body. */
export const DELIVERY_SCHEMA = z.object({
  id: z.string(),
  webhook_id: z.string(),
  event_type: z.string(),
  status: z.enum(['queued', 'retrying', 'delivered', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  last_failure_code: z.string().nullable(),
  last_response_status: z.number().int().nullable(),
  created_at: z.string(),
});

const delivery = DELIVERY_SCHEMA;

const webhookId = z.strictObject({ webhook_id: z.string().min(1).max(100) });
const deliveriesQuery = z.strictObject({ webhook_id: z.string().min(1).max(100).optional() });
const testResponse = z.object({ delivery_id: z.string() });

export const listWebhooks = collectionContract({
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
});

export const createWebhook = resourceContract({
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
});

export const testWebhook = resourceContract({
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
});

export const rotateWebhookSecret = resourceContract({
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
});

export const disableWebhook = resourceContract({
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
});

export const listWebhookDeliveries = collectionContract({
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
});

export const processWebhookDeliveries = resourceContract({
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
});

export const retryWebhookDelivery = resourceContract({
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
});

export const listBearerWebhooks = collectionContract({
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
});

export const listBearerWebhookDeliveries = collectionContract({
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
});

export const testBearerWebhook = resourceContract({
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
});
