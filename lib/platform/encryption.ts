/**
 * Secrets that must be recovered (OIDC signing keys, cookie keys, later webhook signing secrets) are
 * encrypted at rest with AES-256-GCM under DATA_ENCRYPTION_KEY. The associated data names what the
 * value is, so a ciphertext cannot be moved to another column or purpose.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { getConfig } from '@/lib/config';

const VERSION = 'v1';

export function sealSecret(plaintext: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', getConfig().dataEncryptionKey, iv);
  cipher.setAAD(Buffer.from(purpose));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

export function openSecret(sealed: string, purpose: string): string {
  const [version, iv, ciphertext, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !ciphertext || !tag) throw new Error('Unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', getConfig().dataEncryptionKey, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
