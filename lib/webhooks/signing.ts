/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of 32
 * random bytes; the signature is `v1,` + base64 HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`
 * keyed with the decoded bytes. The service keeps the secret's SHA-256 (to recognise it) and a sealed
 * copy (it must sign with it); the plaintext is in one answer only.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { openSecret, sealSecret } from '@/lib/platform';

const PREFIX = 'whsec_';
/** Associated data of the sealed copy: it cannot be moved to another column or purpose. */
const SEAL_PURPOSE = 'webhook_subscriptions.secret_sealed';

export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

export function storedSecret(secret: string): { secretHash: string; secretSealed: string } {
  return { secretHash: createHash('sha256').update(secret).digest('hex'), secretSealed: sealSecret(secret, SEAL_PURPOSE) };
}

export function openWebhookSecret(sealed: string): string {
  return openSecret(sealed, SEAL_PURPOSE);
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one attempt; `webhook-id` is the delivery's id, the same on every retry (receivers dedupe on it). */
export function deliveryHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'identity-service-webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  };
}
