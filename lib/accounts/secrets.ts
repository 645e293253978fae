import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { getConfig } from '@/lib/config';

/** Six digits, uniformly random. */
export function newCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * Codes are stored as HMACs keyed by a server secret and bound to their challenge: a database dump
 * cannot be brute-forced over the small code space without the key.
 */
export function hashCode(challengeId: string, code: string): string {
  return createHmac('sha256', getConfig().sessionSecret).update(`code:${challengeId}:${code}`).digest('base64url');
}

export function codeMatches(challengeId: string, code: string, codeHash: string): boolean {
  const a = Buffer.from(hashCode(challengeId, code));
  const b = Buffer.from(codeHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Names an address's code-guess budget (per purpose) in the rate-limit counters without storing the address. */
export function guessBudgetKey(purpose: string, email: string): string {
  return createHmac('sha256', getConfig().sessionSecret).update(`guesses:${purpose}:${email}`).digest('base64url');
}

/** Bearer tokens (enrollment, recovery): 256 random bits; only their SHA-256 is stored. */
export function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
