/**
 * Ending sessions, and everything that follows: the provider's sessions of that sign-in end with ours
 * (our session is the only truth), the event goes out, the audit trail records it. Sign-out, revoking
 * a session, recovery and password changes all end sessions through here.
 */
import { recordAudit } from '@/lib/audit';
import type { Actor, SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { inTransaction, type Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { endProviderSessions } from '@/lib/oidc';
import { revokeOwnSession, revokeSessionsOf, type RevokedSession } from '@/lib/sessions';

async function announceRevocation(db: Executor, actor: Actor, session: RevokedSession, userId: string, reason: string, now: Date, requestId?: string) {
  await endProviderSessions(db, userId, session.authenticatedAt);
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

/** Revokes one of the caller's own sessions; revoking the current one signs out. */
export async function revokeSession(actor: SessionActor, sessionId: string, now: Date, requestId: string): Promise<{ signedOut: boolean }> {
  const signedOut = sessionId === actor.sessionId;
  const reason = signedOut ? 'signed_out' : 'revoked_by_user';
  await inTransaction(async (tx) => {
    const revoked = await revokeOwnSession(tx, actor.userId, sessionId, reason, now);
    if (!revoked) throw serviceError('not_found', 'No active session of yours has this id.');
    await announceRevocation(tx, actor, revoked, actor.userId, reason, now, requestId);
  });
  return { signedOut };
}

/** Ends every session of a user (recovery, password change), announcing each revocation. */
export async function revokeAllSessions(
  db: Executor,
  input: { actor: Actor; userId: string; reason: string; now: Date; except?: string; requestId?: string },
): Promise<number> {
  const revoked = await revokeSessionsOf(db, input.userId, input.reason, input.now, input.except);
  for (const session of revoked) await announceRevocation(db, input.actor, session, input.userId, input.reason, input.now, input.requestId);
  return revoked.length;
}
