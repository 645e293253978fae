import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { revokeOtherSignInTokens } from '@/lib/oidc';
import { findUserById, type UserRow } from '@/lib/users';
import { endLiveChallenges } from './live-challenges';
import { revokeAllSessions } from './session-revocation';
import { hashPassword } from './password-hashing';
import { acceptablePassword } from './password-policy';
import { findPasswordCredential, savePasswordProof } from './passwords.repo';
import { checkPassword } from './signin';

export interface PasswordChange {
  /** Required whenever the account already has a password (ASVS V6.2.3). */
  currentPassword?: string;
  newPassword: string;
}

/** Whether the account has a password, so the account page asks for the current one only then. */
export async function passwordStatus(actor: SessionActor) {
  const credential = await findPasswordCredential(await getDb(), actor.userId);
  return { set: credential !== null, updated_at: credential?.updatedAt.toISOString() ?? null };
}

/**
 * Sets (or changes) the password of the signed-in user, behind step-up. Changing an existing password
 * also takes the current one: a recent step-up proves someone re-authenticated at this browser, the
 * current password proves they know what they are replacing (a passkey step-up alone does not). The
 * check goes through the sign-in's verification, so wrong guesses count towards the password lockout.
 * Every other session is signed out, every OAuth token not issued to this sign-in is revoked and every
 * live e-mail code, recovery and ceremony of the account ends: whoever knew the old password (or held
 * the mailbox for a moment) loses what they had, including applications they authorized.
 */
export async function changePassword(actor: SessionActor, change: PasswordChange, now: Date, requestId: string) {
  const user = await findUserById(await getDb(), actor.userId);
  if (!user) throw serviceError('unauthenticated', 'Sign in first.');
  await proveCurrentPassword(actor, user, change, now, requestId);
  const proof = await hashPassword(await acceptablePassword(change.newPassword, { email: user.email, field: 'new_password' }));
  const signedOut = await inTransaction(async (tx) => {
    await savePasswordProof(tx, actor.userId, proof, now);
    await endLiveChallenges(tx, actor.userId, now);
    await emitEvent(tx, 'identity.password.changed', { user_id: actor.userId, reason: 'changed_by_user' }, { userId: actor.userId }, now);
    await recordAudit(tx, { action: 'password.changed', outcome: 'success', actor, subject: { type: 'user', id: actor.userId }, requestId, at: now });
    // Tokens first: they are told apart by the provider session of this sign-in.
    await revokeOtherSignInTokens(tx, actor.userId, actor.authenticatedAt);
    return revokeAllSessions(tx, { actor, userId: actor.userId, reason: 'password_changed', now, except: actor.sessionId, requestId });
  });
  return { changed: true as const, other_sessions_signed_out: signedOut };
}

async function proveCurrentPassword(actor: SessionActor, user: UserRow, change: PasswordChange, now: Date, requestId: string) {
  if (!(await findPasswordCredential(await getDb(), user.id))) return;
  if (change.currentPassword === undefined) {
    const message = 'Enter your current password.';
    throw serviceError('invalid_request', `body.current_password: ${message}`, { extras: { errors: [{ path: 'body.current_password', message }] } });
  }
  const { ok } = await checkPassword(user, change.currentPassword, now);
  if (!ok) {
    await recordAudit(await getDb(), { action: 'password.changed', outcome: 'failure', actor, subject: { type: 'user', id: user.id }, requestId, at: now });
    throw serviceError('invalid_credentials', 'The current password is not correct, or password sign-in is paused.', {
      extras: { errors: [{ path: 'body.current_password', message: 'This is not your current password.' }] },
    });
  }
  if (change.newPassword.normalize('NFC') === change.currentPassword.normalize('NFC')) {
    const message = 'Choose a password different from the current one.';
    throw serviceError('weak_password', message, { extras: { errors: [{ path: 'body.new_password', message }] } });
  }
}
