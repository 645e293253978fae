import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { revokeOtherSignInTokens } from '@/lib/oidc';
import { findUserById } from '@/lib/users';
import { revokeAllSessions } from './session-revocation';
import { hashPassword } from './password-hashing';
import { acceptablePassword } from './password-policy';
import { savePasswordProof } from './passwords.repo';

/**
 * Sets (or changes) the password of the signed-in user, behind step-up. Every other session is
 * signed out and every OAuth token not issued to this sign-in is revoked: whoever knew the old
 * password loses what they had, including applications they authorized.
 */
export async function changePassword(actor: SessionActor, newPassword: string, now: Date, requestId: string) {
  const user = await findUserById(await getDb(), actor.userId);
  if (!user) throw serviceError('unauthenticated', 'Sign in first.');
  const proof = await hashPassword(await acceptablePassword(newPassword, { email: user.email, field: 'new_password' }));
  const signedOut = await inTransaction(async (tx) => {
    await savePasswordProof(tx, actor.userId, proof, now);
    await emitEvent(tx, 'identity.password.changed', { user_id: actor.userId, reason: 'changed_by_user' }, { userId: actor.userId }, now);
    await recordAudit(tx, { action: 'password.changed', outcome: 'success', actor, subject: { type: 'user', id: actor.userId }, requestId, at: now });
    // Tokens first: they are told apart by the provider session of this sign-in.
    await revokeOtherSignInTokens(tx, actor.userId, actor.authenticatedAt);
    return revokeAllSessions(tx, { actor, userId: actor.userId, reason: 'password_changed', now, except: actor.sessionId, requestId });
  });
  return { changed: true as const, other_sessions_signed_out: signedOut };
}
