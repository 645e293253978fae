/**
 * Every sign-in starts its session here, in the sign-in's own transaction, so the rules that come
 * with a new session hold for every method (password, passkey, e-mail code):
 * - the session the browser presented ends (ASVS V7.2.4: a new authentication never leaves the
 *   previous session token alive, whoever's it was);
 * - the account keeps at most SESSIONS_PER_ACCOUNT live sessions: beyond it, the least recently
 *   used ones end (ASVS V7.1.2). The new sign-in always succeeds, so a forgotten device can never
 *   lock its owner out.
 * Both end through the one revocation path (event, audit, the provider's sessions).
 */
import { recordAudit } from '@/lib/audit';
import { getConfig } from '@/lib/config';
import { ANONYMOUS, type SessionActor } from '@/lib/contract/actor';
import type { Executor } from '@/lib/db';
import { issueSession, sessionsBeyondLimit, type Amr, type IssuedSession } from '@/lib/sessions';
import type { UserRow } from '@/lib/users';
import { endSession } from './session-revocation';

export interface SessionStart {
  user: UserRow;
  amr: Amr[];
  device: string;
  /** Keyed hash of the device binding (HandlerContext.deviceBinding), kept for organization policies. */
  binding: string;
  now: Date;
  requestId: string;
  /** Passkey and password sign-ins are fresh re-authentications: they open the step-up window. */
  stepUpMethod?: 'passkey' | 'password';
  /** The live session the request's cookie belongs to (HandlerContext.presentedSession). */
  presented: SessionActor | null;
}

export async function startSession(tx: Executor, input: SessionStart): Promise<IssuedSession> {
  const { user, now, requestId } = input;
  if (input.presented) {
    const { userId, sessionId } = input.presented;
    // The same person signing in again keeps the provider's session of this browser: an authorization
    // request that asked for this sign-in (prompt=login, max_age) is bound to it and resumes on it,
    // and the consent moves it onto the new sign-in. Meanwhile it authorizes nothing, since it no
    // longer matches a live session of ours (lib/oidc session truth). Another person's ends with theirs.
    const keepProviderSessions = userId === user.id;
    await endSession(tx, { actor: input.presented, userId, sessionId, reason: 'signed_in_again', now, requestId, keepProviderSessions });
  }
  const issued = await issueSession(tx, { user, amr: input.amr, device: input.device, binding: input.binding, now, stepUpMethod: input.stepUpMethod });
  for (const stale of await sessionsBeyondLimit(tx, user.id, getConfig().sessionsPerAccount, issued.view.session.id, now)) {
    await endSession(tx, { actor: ANONYMOUS, userId: user.id, sessionId: stale.id, reason: 'session_limit', now, requestId });
  }
  return issued;
}

/** A sign-in that succeeded: its session and, in the same transaction, its audit row naming the person. */
export async function startSignedInSession(tx: Executor, action: 'signin.password' | 'signin.passkey' | 'signin.email_code', input: SessionStart) {
  const issued = await startSession(tx, input);
  await recordAudit(tx, {
    action,
    outcome: 'success',
    actor: ANONYMOUS,
    subject: { type: 'user', id: input.user.id },
    requestId: input.requestId,
    at: input.now,
  });
  return issued;
}
