import type { Executor } from '@/lib/db';
import { consumeAccountChallenges } from './email-challenges.repo';
import { consumeAccountCeremonies } from './passkeys.repo';

/**
 * A change to how an account is reached (a password change, a completed recovery, a removed passkey)
 * ends every proof still in flight for it: e-mail sign-in codes, recovery tokens (verified or not) and
 * account-bound WebAuthn ceremonies. Someone who held the mailbox or a device for a moment must not
 * keep a way in that outlives the owner's reaction. Runs inside the change's own transaction, so the
 * change and the ending commit together. Ceremonies bound to a session (step-up) end with the session.
 */
export async function endLiveChallenges(tx: Executor, userId: string, now: Date): Promise<void> {
  await consumeAccountChallenges(tx, userId, now);
  await consumeAccountCeremonies(tx, userId, now);
}
