import { z } from 'zod';
import { listOwnDeliveries } from '@/lib/webhooks';
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
    items: z.array(
      z.object({
        id: z.string(),
        webhook_id: z.string(),
        event_type: z.string(),
        status: z.enum(['queued', 'retrying', 'delivered', 'failed']),
        attempts: z.number(),
        next_attempt_at: z.string().nullable(),
        last_attempt_at: z.string().nullable(),
        last_failure_code: z.string().nullable(),
        last_response_status: z.number().nullable(),
        created_at: z.string(),
      }),
    ),
    ...pageOutput,
  },
  run: async (actor, args) => pageAnswer(NAME, await listOwnDeliveries(actor, pageRequest(NAME, args), { webhookId: args.webhook_id })),
});
