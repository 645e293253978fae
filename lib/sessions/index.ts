/**
 * Browser sessions as a mechanism: issue, resolve, list, revoke, mark step-ups; the sealed cookie and
 * the CSRF token bound to it. What a revocation sets off beyond the session row (the provider's
 * sessions, events, audit) belongs to the account use cases above (lib/accounts/session-revocation.ts).
 */
export { csrfTokenFor } from './csrf';
export { sessionCookieName } from './session-cookie';
export {
  currentSession,
  eraseSessionsOf,
  issueSession,
  listSessions,
  liveSessionsOf,
  markStepUp,
  resolveSessionCookie,
  revokeOwnSession,
  revokeSessionsOf,
  sessionRecord,
  sessionsBeyondLimit,
  sessionView,
  type Amr,
  type IssuedSession,
} from './sessions.service';
export type { RevokedSession, SessionRow } from './sessions.repo';
