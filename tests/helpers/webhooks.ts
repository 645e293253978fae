/**
 * Webhook test fixtures: the environment that lets outbound HTTPS reach the loopback receiver (private
 * addresses allowed, the test CA trusted), and a subscription created through the real pipeline.
 */
import { asBrowser, type Person } from './organizations';
import { TEST_CA_FILE } from './webhook-receiver';

export const WEBHOOKS = '/api/developer/webhooks';
export const LOOPBACK_ENV = { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_CA_FILE: TEST_CA_FILE };

export interface CreatedWebhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  created_at: string;
  updated_at: string;
  secret: string;
}

export async function subscribe(owner: Person, url: string, events: string[] = ['identity.user.updated'], description?: string): Promise<CreatedWebhook> {
  const response = await asBrowser(owner.browser, 'POST', WEBHOOKS, { body: { url, events, ...(description ? { description } : {}) } });
  if (response.status !== 201) throw new Error(`subscribe failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as CreatedWebhook;
}
