import { recordAudit } from '@/lib/audit';
import { ANONYMOUS, type SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction } from '@/lib/db';
import { markStepUp } from '@/lib/sessions';
import { consumeChallenge, findEmailChallenge } from './email-challenges.repo';
import { startChallenge, verifyCode } from './email-challenges';
import { isLocked, registerPasswordFailure } from './lockout';
import { accountMails, deliver } from './mails';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password-hashing';
import { clearFailures, findPasswordCredential } from './passwords.repo';
import { startSignedInSession } from './session-start';
import { findUserByEmail, findUserById, type UserRow } from '@/lib/users';

/**
 * Unknown account, wrong password and locked account all end here: one body, one status. The lock is
 * kept as the error's internal reason, for the sign-in metrics only.
 */
function invalidCredentials(reason?: 'locked'): never {
  throw serviceError('invalid_credentials', 'Check the e-mail address and password, or use another way to sign in.', { reason });
}

async function auditFailure(action: string, userId: string | null, requestId: string, now: Date) {
  await recordAudit(await getDb(), {
    action,
    outcome: 'failure',
    actor: ANONYMOUS,
    subject: userId ? { type: 'user', id: userId } : undefined,
    requestId,
    at: now,
  });
}

/**
 * Checks a password for a user with equalised work: an unknown or locked account still spends one
 * full verification against a dummy proof, so timing does not tell them apart.
 */
export async function checkPassword(
  user: UserRow | null,
  password: string,
  now: Date,
): Promise<{ ok: boolean; rehash: boolean; locked: boolean; failuresToClear: boolean }> {
  const credential = user ? await findPasswordCredential(await getDb(), user.id) : null;
  if (!user || !credential || isLocked(credential, now)) {
    await verifyAgainstDummy(password);
    return { ok: false, rehash: false, locked: credential !== null && isLocked(credential, now), failuresToClear: false };
  }
  const outcome = await verifyPassword(password, credential);
  if (!outcome.ok) await registerPasswordFailure(user.id, user.email, now);
  const failuresToClear = credential.failedAttempts > 0 || credential.lockouts > 0 || credential.lockedUntil !== null;
  return { ...outcome, locked: false, failuresToClear };
}

export async function signInWithPassword(input: {
  email: string;
  password: string;
  device: string;
  binding: string;
  now: Date;
  requestId: string;
  presented: SessionActor | null;
}) {
  const user = await findUserByEmail(await getDb(), input.email);
  const { ok, rehash, locked, failuresToClear } = await checkPassword(user, input.password, input.now);
  if (!ok || !user) {
    await auditFailure('signin.password', user?.id ?? null, input.requestId, input.now);
    invalidCredentials(locked ? 'locked' : undefined);
  }
  // A stored proof made with another work factor is replaced while the password is at hand.
  const rehashed = rehash ? await hashPassword(input.password) : null;
  return inTransaction(async (tx) => {
    // Most sign-ins have nothing to reset: no write then (one statement less on the hottest path).
    if (failuresToClear || rehashed) await clearFailures(tx, user.id, input.now, rehashed);
    return startSignedInSession(tx, 'signin.password', {
      user,
      amr: ['pwd'],
      device: input.device,
      binding: input.binding,
      now: input.now,
      requestId: input.requestId,
      stepUpMethod: 'password',
      presented: input.presented,
    });
  });
}

export async function stepUpWithPassword(actor: SessionActor, password: string, now: Date, requestId: string) {
  const user = await findUserById(await getDb(), actor.userId);
  const { ok } = await checkPassword(user, password, now);
  if (!ok) {
    await recordAudit(await getDb(), { action: 'step_up.password', outcome: 'failure', actor, requestId, at: now });
    throw serviceError('invalid_credentials', 'That password is not correct, or password sign-in is paused; try a passkey instead.');
  }
  return inTransaction(async (tx) => {
    const stepUp = await markStepUp(tx, actor, 'password', now);
    await recordAudit(tx, { action: 'step_up.password', outcome: 'success', actor, requestId, at: now });
    return stepUp;
  });
}

/** Always 202 with a challenge id; an unknown address gets a "no account" mail instead of a code. */
export async function startEmailCodeSignIn(email: string, now: Date, requestId: string) {
  const { started } = await inTransaction(async (tx) => {
    const user = await findUserByEmail(tx, email);
    const started = await startChallenge(tx, { purpose: 'signin', email, userId: user?.id ?? null, canVerify: user !== null, withToken: false, now });
    await recordAudit(tx, {
      action: 'signin.email_code.started',
      outcome: 'success',
      actor: ANONYMOUS,
      subject: { type: 'email_challenge', id: started.id },
      requestId,
      at: now,
    });
    // Mailed before commit: a mail server that refuses rolls the challenge back (503, nothing kept).
    await deliver(user ? accountMails.signInCode(email, started.code) : accountMails.noAccount(email, 'sign in'));
    return { started };
  });
  return { challenge_id: started.id, expires_at: started.expiresAt.toISOString() };
}

export async function completeEmailCodeSignIn(input: {
  challengeId: string;
  code: string;
  device: string;
  binding: string;
  now: Date;
  requestId: string;
  presented: SessionActor | null;
}) {
  const row = await findEmailChallenge(await getDb(), input.challengeId);
  if (!row || row.purpose !== 'signin') throw serviceError('invalid_code', 'The code is wrong or has expired.');
  try {
    await verifyCode(row, input.code, input.now);
  } catch (error) {
    await auditFailure('signin.email_code', row.userId, input.requestId, input.now);
    throw error;
  }
  return inTransaction(async (tx) => {
    if (!(await consumeChallenge(tx, row.id, input.now))) throw serviceError('invalid_code', 'The code is wrong or has expired.');
    const user = row.userId ? await findUserById(tx, row.userId) : null;
    if (!user) throw serviceError('invalid_code', 'The code is wrong or has expired.');
    // An e-mail code signs in but is no re-authentication: no step-up window (docs/security.md).
    return startSignedInSession(tx, 'signin.email_code', {
      user,
      amr: ['otp'],
      device: input.device,
      binding: input.binding,
      now: input.now,
      requestId: input.requestId,
      presented: input.presented,
    });
  });
}
