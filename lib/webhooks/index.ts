/** Webhooks: subscriptions, the event catalogue, and durable signed delivery from the outbox. */
export { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './terms';
export { listOwnDeliveries, sendTestEvent } from './deliveries';
export { DELIVERY_SCHEMA } from './webhooks.contract';
export { listOwnWebhooks } from './subscriptions';
export { ensureWebhookWorker, runWorkerInService, startWebhookWorker, stopServiceWorker, workOnce, type WebhookWorker } from './worker';
export { eraseWebhooksOf } from './erasure';
export { webhookQueueStats } from './queue-stats';
