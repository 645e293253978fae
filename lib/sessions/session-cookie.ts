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

/**
 * Unsealing runs two key derivations, an HMAC and a decryption through WebCrypto (about half a
 * millisecond of CPU on a busy two-core machine), on every cookie request, for a value that does not
 * change during a session. So a cookie that unsealed is remembered (its exact value, under the
 * current password, to its payload) for a few minutes, never past the seal's own expiry. Failures are
 * never remembered, so arbitrary cookies cannot fill the memory, and the oldest entry leaves when it is
 * full. Whether the session is valid (secret hash, revocation, expiry) is still read on every request.
 */
const UNSEALED_TTL_MS = 5 * 60_000;
const UNSEALED_MAX_ENTRIES = 10_000;
const unsealed = new Map<string, { payload: CookiePayload; password: string; until: number }>();

/** The seal's expiry (iron: `Fe26.2*id*salt*iv*data*expiration*hmacSalt*hmac`, then `~version`). */
function sealExpiry(value: string): number {
  const expiration = Number(value.split('~')[0]!.split('*')[5]);
  return Number.isFinite(expiration) && expiration > 0 ? expiration : Infinity;
}

export async function unsealSessionCookie(value: string): Promise<CookiePayload | null> {
  const password = getConfig().sessionSecret;
  const now = Date.now();
  const known = unsealed.get(value);
  if (known && known.password === password && known.until > now) return known.payload;
  if (known) unsealed.delete(value);
  const payload = await unsealFresh(value, password);
  if (payload) {
    if (unsealed.size >= UNSEALED_MAX_ENTRIES) unsealed.delete(unsealed.keys().next().value!);
    unsealed.set(value, { payload, password, until: Math.min(now + UNSEALED_TTL_MS, sealExpiry(value)) });
  }
  return payload;
}

async function unsealFresh(value: string, password: string): Promise<CookiePayload | null> {
  try {
    const data = await unsealData<Partial<CookiePayload>>(value, { password, ttl: getConfig().ttl.sessionAbsolute });
    return typeof data.sid === 'string' && typeof data.secret === 'string' ? { sid: data.sid, secret: data.secret } : null;
  } catch {
    return null;
  }
}
