/** Webhooks: subscriptions, the event catalogue, and durable signed delivery from the outbox. */
export { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './catalogue';
export { DELIVERY_SCHEMA, listOwnDeliveries, sendTestEvent } from './deliveries';
export { listOwnWebhooks } from './subscriptions';
export { ensureWebhookWorker, runWorkerInService, startWebhookWorker, workOnce, type WebhookWorker } from './worker';
