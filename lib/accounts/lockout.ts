/**
 * Password lockout (ARCHITECTURE.md): 10 consecutive failures lock password sign-in for 15 minutes,
 * doubling with each repeat. Only password sign-in is locked: passkeys and e-mail codes keep working,
 * so knowing someone's address is not enough to lock them out. The owner is told by mail.
 */
import { getDb } from '@/lib/db';
import { accountMails, deliver } from './mails';
import { countFailure, lockPassword, type PasswordCredentialRow } from './passwords.repo';

export const LOCKOUT_THRESHOLD = 10;
export const LOCKOUT_BASE_SECONDS = 15 * 60;
const LOCKOUT_MAX_SECONDS = 24 * 3600;

/** The policy as the sign-in page states it (public knowledge, like the lockout mail): never an account's state. */
export const PASSWORD_LOCKOUT_POLICY = { threshold: LOCKOUT_THRESHOLD, minutes: LOCKOUT_BASE_SECONDS / 60 } as const;

export function isLocked(credential: PasswordCredentialRow, now: Date): boolean {
  return credential.lockedUntil !== null && credential.lockedUntil > now;
}

export async function registerPasswordFailure(userId: string, email: string, now: Date): Promise<void> {
  const db = await getDb();
  const { failedAttempts, lockouts } = await countFailure(db, userId);
  if (failedAttempts < LOCKOUT_THRESHOLD) return;
  const seconds = Math.min(LOCKOUT_MAX_SECONDS, LOCKOUT_BASE_SECONDS * 2 ** lockouts);
  await lockPassword(db, userId, new Date(now.getTime() + seconds * 1000));
  // The lock stands even if the notice cannot be sent right now.
  await deliver(accountMails.lockedOut(email, seconds)).catch(() => undefined);
}
