/**
 * Client secrets of developer-portal applications (confidential clients). The secret is 32 random
 * bytes (`ics_` + base64url), shown to the owner once; the service keeps only its SHA-256 (a salt or
 * a slow hash adds nothing against a 256-bit random value). The provider's Client record carries that
 * hash as its `client_secret`, and the provider compares hashes (`installHashedSecretComparison`):
 * the presented secret is hashed and compared in constant time. A dumped hash presented as a secret
 * is therefore hashed once more and fails.
 *
 * Nothing else in the provider may read `client_secret` as a key: HMAC algorithms (HS*) and
 * client_secret_jwt are switched off in provider.ts, so no JWT is ever signed or checked with it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const CLIENT_SECRET_PREFIX = 'ics_';
const SHA256_HEX = /^[0-9a-f]{64}$/;

export function generateClientSecret(): string {
  return `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `presented` hashes to `storedHash` (constant time in the presented value). */
export function secretMatches(storedHash: unknown, presented: unknown): boolean {
  if (typeof storedHash !== 'string' || !SHA256_HEX.test(storedHash) || typeof presented !== 'string' || presented.length === 0) return false;
  return timingSafeEqual(Buffer.from(hashClientSecret(presented), 'hex'), Buffer.from(storedHash, 'hex'));
}

interface ClientPrototype {
  clientSecret?: string;
  compareClientSecret(actual: string): Promise<boolean> | boolean;
}

/** Replaces the provider's plain comparison (client_secret_basic and client_secret_post) with the hashed one. */
export function installHashedSecretComparison(ClientClass: { prototype: unknown }): void {
  (ClientClass.prototype as ClientPrototype).compareClientSecret = function compareClientSecret(this: ClientPrototype, actual: string) {
    return secretMatches(this.clientSecret, actual);
  };
}
