/**
 * Ending sessions, and everything that follows: the provider's sessions of that sign-in end with ours
 * (our session is the only truth), the event goes out, the audit trail records it. Sign-out, revoking
 * a session, signing out everywhere else, a new sign-in replacing the browser's session, the
 * concurrent-session limit, recovery and password changes all end sessions through here.
 */
import { recordAudit } from '@/lib/audit';
import type { Actor, SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { inTransaction, type Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { endProviderSessions } from '@/lib/oidc';
import { revokeOwnSession, revokeSessionsOf, type RevokedSession } from '@/lib/sessions';

/** Why a session ended: the `reason` of identity.session.revoked and of the audit record. */
export type RevocationReason =
  'signed_out' | 'revoked_by_user' | 'signed_out_elsewhere' | 'signed_in_again' | 'session_limit' | 'password_changed' | 'account_recovered';

async function announceRevocation(
  db: Executor,
  actor: Actor,
  session: RevokedSession,
  userId: string,
  reason: RevocationReason,
  now: Date,
  requestId?: string,
  keepProviderSessions = false,
) {
  if (!keepProviderSessions) await endProviderSessions(db, userId, session.authenticatedAt);
  // identity.session.revoked carries only these three fields (spec, Events).
  await emitEvent(db, 'identity.session.revoked', { session_id: session.id, user_id: userId, reason }, { userId }, now);
  await recordAudit(db, {
    action: 'session.revoked',
    outcome: 'success',
    actor,
    subject: { type: 'session', id: session.id },
    requestId,
    data: { reason, user: userId },
    at: now,
  });
}

/**
 * Ends one live session of `userId` and announces it; false when it was not theirs or had already
 * ended. `keepProviderSessions`: only for the same person signing in again in the same browser (see
 * session-start.ts).
 */
export async function endSession(
  db: Executor,
  input: { actor: Actor; userId: string; sessionId: string; reason: RevocationReason; now: Date; requestId?: string; keepProviderSessions?: boolean },
): Promise<boolean> {
  const revoked = await revokeOwnSession(db, input.userId, input.sessionId, input.reason, input.now);
  if (revoked) await announceRevocation(db, input.actor, revoked, input.userId, input.reason, input.now, input.requestId, input.keepProviderSessions);
  return revoked !== null;
}

/**
 * Revokes one of the caller's own sessions; revoking the current one signs out. Ending any other
 * session needs a recent step-up, declared on the operation's auth term (sessions.routes.ts).
 */
export async function revokeSession(actor: SessionActor, sessionId: string, now: Date, requestId: string): Promise<{ signedOut: boolean }> {
  const signedOut = sessionId === actor.sessionId;
  const reason = signedOut ? 'signed_out' : 'revoked_by_user';
  await inTransaction(async (tx) => {
    if (!(await endSession(tx, { actor, userId: actor.userId, sessionId, reason, now, requestId }))) {
      throw serviceError('not_found', 'No active session of yours has this id.');
    }
  });
  return { signedOut };
}

/** "Sign out everywhere else": every live session of the caller but the current one (step-up declared on the operation). */
export async function revokeOtherSessions(actor: SessionActor, now: Date, requestId: string): Promise<{ revoked: number }> {
  const revoked = await inTransaction((tx) =>
    revokeAllSessions(tx, { actor, userId: actor.userId, reason: 'signed_out_elsewhere', now, except: actor.sessionId, requestId }),
  );
  return { revoked };
}

/** Ends every session of a user (recovery, password change, sign out everywhere else), announcing each revocation. */
export async function revokeAllSessions(
  db: Executor,
  input: { actor: Actor; userId: string; reason: RevocationReason; now: Date; except?: string; requestId?: string },
): Promise<number> {
  const revoked = await revokeSessionsOf(db, input.userId, input.reason, input.now, input.except);
  for (const session of revoked) await announceRevocation(db, input.actor, session, input.userId, input.reason, input.now, input.requestId);
  return revoked.length;
}
