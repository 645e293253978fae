import { z } from 'zod';
import { DELIVERY_SCHEMA, listOwnDeliveries } from '@/lib/webhooks';
import { pageAnswer, pageInput, pageOutput, pageRequest } from '../paging';
import { defineTool } from '../tool';

const NAME = 'list_webhook_deliveries';

/** The delivery log of the person's webhooks: status and attempts only (never a payload, secret or response body). */
export const listWebhookDeliveries = defineTool({
  name: NAME,
  title: 'List webhook deliveries',
  description:
    'The delivery log of your webhooks, newest first (optionally of one webhook): event type, status (queued, retrying, delivered, failed), attempts, next and last attempt, the last failure code and response status. Never a payload, a secret or a response body.',
  scope: 'identity.developer.read',
  readOnly: true,
  input: { webhook_id: z.string().max(64).optional().describe('Only the deliveries of this webhook'), ...pageInput },
  output: {
    items: z.array(DELIVERY_SCHEMA),
    ...pageOutput,
  },
  run: async (actor, args) => pageAnswer(NAME, await listOwnDeliveries(actor, pageRequest(NAME, args), { webhookId: args.webhook_id })),
});
