import { z } from 'zod';
import { sendTestEvent } from '@/lib/webhooks';
import { defineTool } from '../tool';

/** The portal's test event (same service, same audit record); the worker delivers it, signed. */
export const sendTestEventTool = defineTool({
  name: 'send_test_event',
  title: 'Send a test event',
  description: 'Queue a signed identity.webhook.test event for one of your enabled webhooks; follow it with list_webhook_deliveries.',
  scope: 'identity.webhooks.test',
  readOnly: false,
  input: { webhook_id: z.string().min(1).max(64) },
  output: { delivery_id: z.string() },
  run: (actor, args, { now, requestId }) => sendTestEvent(actor, args.webhook_id, now, requestId),
});
