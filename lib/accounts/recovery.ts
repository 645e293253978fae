import { recordAudit } from '@/lib/audit';
import { ANONYMOUS, type RecoveryActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { revokeAccountAuthorizations } from '@/lib/oidc';
import { endLiveChallenges } from './live-challenges';
import { revokeAllSessions } from './session-revocation';
import { consumeChallenge, findEmailChallenge, type EmailChallengeRow } from './email-challenges.repo';
import { proveByCode, rotateCode, startChallenge } from './email-challenges';
import { accountMails, deliver } from './mails';
import { hashPassword } from './password-hashing';
import { acceptablePassword } from './password-policy';
import { savePasswordProof } from './passwords.repo';
import { findUserByEmail, findUserById, type UserRow } from '@/lib/users';

export async function startRecovery(email: string, now: Date, requestId: string) {
  const { started } = await inTransaction(async (tx) => {
    const user = await findUserByEmail(tx, email);
    const started = await startChallenge(tx, { purpose: 'recovery', email, userId: user?.id ?? null, canVerify: user !== null, withToken: true, now });
    await recordAudit(tx, {
      action: 'recovery.started',
      outcome: 'success',
      actor: ANONYMOUS,
      subject: { type: 'recovery', id: started.id },
      requestId,
      at: now,
    });
    // Mailed before commit: a mail server that refuses rolls the recovery back (503, nothing kept).
    await deliver(user ? accountMails.recoveryCode(email, started.code) : accountMails.noAccount(email, 'recover an account'));
    return { started };
  });
  return { recovery_token: started.token!, expires_at: started.expiresAt.toISOString() };
}

export async function recoveryOf(actor: RecoveryActor): Promise<EmailChallengeRow> {
  const row = await findEmailChallenge(await getDb(), actor.recoveryId);
  if (!row) throw serviceError('unauthenticated', 'The recovery has ended.');
  return row;
}

export async function resendRecoveryCode(actor: RecoveryActor, now: Date) {
  const row = await recoveryOf(actor);
  if (row.verifiedAt) throw serviceError('conflict', 'The recovery is already verified.');
  const codeExpiresAt = await inTransaction(async (tx) => {
    const { code, codeExpiresAt } = await rotateCode(tx, row, now);
    await deliver(row.canVerify ? accountMails.recoveryCode(row.email, code) : accountMails.noAccount(row.email, 'recover an account'));
    return codeExpiresAt;
  });
  return { expires_at: codeExpiresAt.toISOString() };
}

/** Verifying proves control of the address; it issues no session. */
export async function verifyRecovery(actor: RecoveryActor, code: string, now: Date, requestId: string) {
  await proveByCode(await recoveryOf(actor), code, { action: 'recovery.verification', actor, requestId }, now);
  return { verified: true as const };
}

export function assertRecoveryVerified(row: EmailChallengeRow): void {
  if (!row.verifiedAt || !row.userId) throw serviceError('forbidden', 'Verify the recovery code first.');
}

/**
 * Finishes a recovery inside the caller's transaction: consumes it (single use), ends every other
 * live challenge of the account (codes, recoveries: live-challenges.ts), signs out every session, revokes every OAuth grant and token (the account may have been taken over:
 * applications authorized by whoever held it lose access) and records what happened. Existing
 * passkeys and password are kept.
 */
export async function finishRecovery(
  tx: Executor,
  row: EmailChallengeRow,
  input: { actor: RecoveryActor; method: 'passkey' | 'password'; now: Date; requestId: string },
): Promise<UserRow> {
  if (!(await consumeChallenge(tx, row.id, input.now))) throw serviceError('conflict', 'This recovery was already completed.');
  const user = await findUserById(tx, row.userId!);
  if (!user) throw serviceError('conflict', 'The account no longer exists.');
  await endLiveChallenges(tx, user.id, input.now);
  await revokeAllSessions(tx, { actor: input.actor, userId: user.id, reason: 'account_recovered', now: input.now, requestId: input.requestId });
  await revokeAccountAuthorizations(tx, user.id);
  await recordAudit(tx, {
    action: 'recovery.completed',
    outcome: 'success',
    actor: input.actor,
    subject: { type: 'user', id: user.id },
    requestId: input.requestId,
    data: { method: input.method },
    at: input.now,
  });
  return user;
}

/** Extension: recovery for people without a passkey device sets a new password instead. */
export async function completePasswordRecovery(actor: RecoveryActor, newPassword: string, now: Date, requestId: string) {
  const row = await recoveryOf(actor);
  assertRecoveryVerified(row);
  const proof = await hashPassword(await acceptablePassword(newPassword, { email: row.email }));
  const user = await inTransaction(async (tx) => {
    const recovered = await finishRecovery(tx, row, { actor, method: 'password', now, requestId });
    await savePasswordProof(tx, recovered.id, proof, now);
    await emitEvent(tx, 'identity.password.changed', { user_id: recovered.id, reason: 'recovery' }, { userId: recovered.id }, now);
    return recovered;
  });
  await deliver(accountMails.recovered(user.email, 'a new password')).catch(() => undefined);
  return { user_id: user.id };
}
