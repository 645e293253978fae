/**
 * The event catalogue a subscription chooses from: every domain event the service writes to its
 * outbox (lib/contract/events.ts; docs/webhooks.md has the table with each payload). The test event is
 * not subscribable: it is sent to one subscription on request.
 */
import { EVENT_TYPES } from '@/lib/contract/events';

export const WEBHOOK_EVENT_TYPES = EVENT_TYPES;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = 'identity.webhook.test';
