import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import { listOwnDeliveries, processOwnDeliveries, retryDelivery, sendTestEvent } from './deliveries';
import { createWebhook, disableWebhook, listOwnWebhooks, rotateWebhookSecret } from './subscriptions';
import * as contract from './webhooks.contract';

export const webhookOperations: AnyOperation[] = [
  bindCollection(contract.listWebhooks, ({ actor, page }) => listOwnWebhooks(actor, page)),
  bindResource(contract.createWebhook, ({ actor, body, now, requestId }) => createWebhook(actor, body, now, requestId)),
  bindResource(contract.testWebhook, ({ actor, body, now, requestId }) => sendTestEvent(actor, body.webhook_id, now, requestId)),
  bindResource(contract.rotateWebhookSecret, ({ actor, body, now, requestId }) => rotateWebhookSecret(actor, body.webhook_id, now, requestId)),
  bindResource(contract.disableWebhook, ({ actor, body, now, requestId }) => disableWebhook(actor, body.webhook_id, now, requestId)),
  bindCollection(contract.listWebhookDeliveries, ({ actor, page, query }) => listOwnDeliveries(actor, page, { webhookId: query.webhook_id })),
  bindResource(contract.processWebhookDeliveries, ({ actor, now }) => processOwnDeliveries(actor, now)),
  bindResource(contract.retryWebhookDelivery, ({ actor, body, now, requestId }) => retryDelivery(actor, body.delivery_id, now, requestId)),
  bindCollection(contract.listBearerWebhooks, ({ actor, page }) => listOwnWebhooks(actor, page)),
  bindCollection(contract.listBearerWebhookDeliveries, ({ actor, page, query }) => listOwnDeliveries(actor, page, { webhookId: query.webhook_id })),
  bindResource(contract.testBearerWebhook, ({ actor, body, now, requestId }) => sendTestEvent(actor, body.webhook_id, now, requestId)),
];
