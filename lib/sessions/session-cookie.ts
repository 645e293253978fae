/**
 * The cookie value: iron-session's sealed (encrypted + MACed) envelope of the session id and a
 * random secret. The database keeps SHA-256(secret) only.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sealData, unsealData } from 'iron-session';
import { getConfig } from '@/lib/config';

/** `__Host-session` over HTTPS (cannot be planted by a sibling host), `session` on plain-http localhost. */
export function sessionCookieName(): string {
  return getConfig().secureCookies ? '__Host-session' : 'session';
}

interface CookiePayload {
  sid: string;
  secret: string;
}

export function newSessionSecret(): { secret: string; secretHash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, secretHash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export function secretMatches(secret: string, secretHash: string): boolean {
  const a = Buffer.from(hashSecret(secret));
  const b = Buffer.from(secretHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function sealSessionCookie(payload: CookiePayload): Promise<string> {
  return sealData(payload, { password: getConfig().sessionSecret, ttl: getConfig().ttl.sessionAbsolute });
}

export async function unsealSessionCookie(value: string): Promise<CookiePayload | null> {
  try {
    const data = await unsealData<Partial<CookiePayload>>(value, { password: getConfig().sessionSecret, ttl: getConfig().ttl.sessionAbsolute });
    return typeof data.sid === 'string' && typeof data.secret === 'string' ? { sid: data.sid, secret: data.secret } : null;
  } catch {
    return null;
  }
}
