import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import { ANONYMOUS, type EnrollmentActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { consumeChallenge, findEmailChallenge, markVerified, type EmailChallengeRow } from './email-challenges.repo';
import { proveByCode, rotateCode, startChallenge } from './email-challenges';
import { accountMails, deliver } from './mails';
import { hashPassword } from './password-hashing';
import { acceptablePassword } from './password-policy';
import { savePasswordProof } from './passwords.repo';
import { findUserByEmail, insertUser, type UserRow } from '@/lib/users';

/**
 * Always the same answer (202 + a token of the same shape): a known address gets a "you already have
 * an account" mail and a token that can never verify.
 */
export async function startEnrollment(email: string, now: Date, requestId: string) {
  const { started } = await inTransaction(async (tx) => {
    const existing = await findUserByEmail(tx, email);
    const started = await startChallenge(tx, { purpose: 'enrollment', email, userId: existing?.id ?? null, canVerify: !existing, withToken: true, now });
    await recordAudit(tx, {
      action: 'enrollment.started',
      outcome: 'success',
      actor: ANONYMOUS,
      subject: { type: 'enrollment', id: started.id },
      requestId,
      at: now,
    });
    // Mailed before commit: a mail server that refuses rolls the enrollment back (503, nothing kept).
    await deliver(existing ? accountMails.alreadyHaveAccount(email) : accountMails.enrollmentCode(email, started.code));
    return { started };
  });
  return { enrollment_token: started.token!, expires_at: started.expiresAt.toISOString() };
}

/**
 * An enrollment whose address another proof of the mailbox already verified (an invitation link: its
 * token was mailed to that address; docs/decisions.md, "Sign-up from an invitation"), in the caller's
 * transaction, where that proof was checked. Verified from the start, so no code is mailed; single
 * use and expiry as any enrollment. An address that has an account gets 409: the proof's holder is
 * the mailbox's owner, whom the code mail would tell the same.
 */
export async function startVerifiedEnrollment(tx: Executor, email: string, proof: 'invitation', now: Date, requestId: string) {
  if (await findUserByEmail(tx, email)) throw serviceError('conflict', 'An account already uses the invited address: sign in to accept the invitation.');
  const started = await startChallenge(tx, { purpose: 'enrollment', email, userId: null, canVerify: true, withToken: true, now });
  await markVerified(tx, started.id, now);
  const subject = { type: 'enrollment', id: started.id };
  await recordAudit(tx, { action: 'enrollment.started', outcome: 'success', actor: ANONYMOUS, subject, requestId, at: now });
  await recordAudit(tx, { action: 'enrollment.email_verification', outcome: 'success', actor: ANONYMOUS, subject, requestId, data: { proof }, at: now });
  return { enrollment_token: started.token!, expires_at: started.expiresAt.toISOString(), email };
}

export async function enrollmentOf(actor: EnrollmentActor): Promise<EmailChallengeRow> {
  const row = await findEmailChallenge(await getDb(), actor.enrollmentId);
  if (!row) throw serviceError('unauthenticated', 'The enrollment has ended.');
  return row;
}

export async function verifyEnrollmentEmail(actor: EnrollmentActor, code: string, now: Date, requestId: string) {
  await proveByCode(await enrollmentOf(actor), code, { action: 'enrollment.email_verification', actor, requestId }, now);
  return { email_verified: true as const };
}

export async function resendEnrollmentEmail(actor: EnrollmentActor, now: Date) {
  const row = await enrollmentOf(actor);
  if (row.verifiedAt) throw serviceError('conflict', 'The address is already verified.');
  const codeExpiresAt = await inTransaction(async (tx) => {
    const { code, codeExpiresAt } = await rotateCode(tx, row, now);
    await deliver(row.canVerify ? accountMails.enrollmentCode(row.email, code) : accountMails.alreadyHaveAccount(row.email));
    return codeExpiresAt;
  });
  return { expires_at: codeExpiresAt.toISOString() };
}

export function assertVerified(row: EmailChallengeRow): void {
  if (!row.verifiedAt) throw serviceError('forbidden', 'Verify the e-mail address with its code first.');
}

/**
 * Creates the account inside the caller's transaction and consumes the enrollment (single use).
 * A concurrent completion or an address taken meanwhile is 409.
 */
export async function createAccount(
  tx: Executor,
  row: EmailChallengeRow,
  input: { userId?: string; displayName?: string; now: Date; method: 'password' | 'passkey'; requestId: string; actor: EnrollmentActor },
): Promise<UserRow> {
  if (!(await consumeChallenge(tx, row.id, input.now))) throw serviceError('conflict', 'This enrollment was already completed.');
  if (await findUserByEmail(tx, row.email)) throw serviceError('conflict', 'An account with this address exists.');
  const user: UserRow = {
    id: input.userId ?? randomUUID(),
    email: row.email,
    emailVerifiedAt: row.verifiedAt!,
    displayName: input.displayName ?? null,
    locale: null,
    timezone: null,
    createdAt: input.now,
    updatedAt: input.now,
  };
  await insertUser(tx, user);
  await recordAudit(tx, {
    action: 'account.created',
    outcome: 'success',
    actor: input.actor,
    subject: { type: 'user', id: user.id },
    requestId: input.requestId,
    data: { method: input.method },
    at: input.now,
  });
  await emitEvent(tx, 'identity.user.created', { user_id: user.id }, { userId: user.id }, input.now);
  return user;
}

export async function completePasswordEnrollment(actor: EnrollmentActor, input: { password: string; displayName?: string }, now: Date, requestId: string) {
  const row = await enrollmentOf(actor);
  assertVerified(row);
  const password = await acceptablePassword(input.password, { email: row.email });
  const proof = await hashPassword(password);
  const user = await inTransaction(async (tx) => {
    const created = await createAccount(tx, row, { displayName: input.displayName, now, method: 'password', requestId, actor });
    await savePasswordProof(tx, created.id, proof, now);
    return created;
  });
  return { user_id: user.id };
}
