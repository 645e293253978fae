import { z } from 'zod';
import { defineOperation, result, type AnyOperation, type SessionCookieInstruction } from '@/lib/contract/operation';
import { actorOfKind } from '@/lib/contract/actor';
import { currentSession, listSessions, type IssuedSession } from '@/lib/sessions';
import { revokeOtherSessions, revokeSession } from './session-revocation';
import { SESSION_STEP_UP_METHODS, WITH_STEP_UP } from './step-up-methods';

const TAG = 'Sign-in, sessions, step-up';

export const sessionViewSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), display_name: z.string().nullable(), locale: z.string().nullable(), timezone: z.string().nullable() }),
  session: z.object({
    id: z.string(),
    created_at: z.string(),
    authenticated_at: z.string(),
    expires_at: z.string(),
    idle_expires_at: z.string(),
    amr: z.array(z.string()),
    step_up_at: z.string().nullable(),
    step_up_method: z.enum(['passkey', 'password']).nullable(),
    step_up_age_seconds: z.number().int().nullable(),
  }),
  csrf_token: z.string(),
});

/** A sign-in's answer: the session view, and the sealed cookie set on the response. */
export function signedIn(issued: IssuedSession) {
  return result(issued.view, { sessionCookie: issued.cookie });
}

/** A step-up's answer: when and how, and the session's new cookie (the old one is dead, ASVS V7.2.4). */
export function steppedUp(outcome: { stepUp: { step_up_at: string; step_up_method: 'passkey' | 'password' }; cookie: SessionCookieInstruction }) {
  return result(outcome.stepUp, { sessionCookie: outcome.cookie });
}

const getSession = defineOperation({
  id: 'getSession',
  method: 'GET',
  path: '/api/auth/session',
  tag: TAG,
  summary: 'Resolve the current session (user, session metadata, CSRF token)',
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  successStatus: 200,
  response: sessionViewSchema,
  handler: ({ actor, now }) => currentSession(actorOfKind(actor, 'session'), now),
});

const listOwnSessions = defineOperation({
  id: 'listSessions',
  method: 'GET',
  path: '/api/auth/sessions',
  tag: TAG,
  summary: 'List the active sessions of the signed-in user (safe metadata; the current one is marked)',
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  successStatus: 200,
  response: z.object({
    sessions: z.array(
      z.object({
        id: z.string(),
        current: z.boolean(),
        device: z.string(),
        amr: z.array(z.string()),
        created_at: z.string(),
        authenticated_at: z.string(),
        last_seen_at: z.string(),
        expires_at: z.string(),
      }),
    ),
  }),
  handler: ({ actor, now }) => listSessions(actorOfKind(actor, 'session'), now),
});

const revoke = defineOperation({
  id: 'revokeSession',
  method: 'POST',
  path: '/api/auth/sessions/revoke',
  tag: TAG,
  summary: 'Revoke one of your own sessions; revoking the current one signs out (free), any other needs a recent step-up',
  // ASVS V7.5.2: whoever holds a stolen cookie must not be able to throw the owner out of their other devices.
  auth: {
    kind: 'session',
    stepUp: {
      methods: SESSION_STEP_UP_METHODS,
      onlyWhen: { says: 'to revoke another session', applies: ({ body }, actor) => (body as { session_id: string }).session_id !== actor.sessionId },
    },
  },
  origin: 'required',
  idempotency: 'none',
  acceptsForm: true,
  body: z.object({ session_id: z.uuid() }),
  successStatus: 200,
  errorStatuses: [403, 404],
  emits: ['identity.session.revoked'],
  response: z.object({ revoked: z.literal(true) }),
  handler: async ({ actor, body, now, requestId }) => {
    const { signedOut } = await revokeSession(actorOfKind(actor, 'session'), body.session_id, now, requestId);
    return result({ revoked: true as const }, signedOut ? { sessionCookie: { clear: true } } : {});
  },
});

const revokeOthers = defineOperation({
  id: 'revokeOtherSessions',
  method: 'POST',
  path: '/api/auth/sessions/revoke-others',
  tag: TAG,
  summary: 'Sign out everywhere else: revoke every session of yours but the current one',
  extension: true,
  auth: WITH_STEP_UP,
  origin: 'required',
  idempotency: 'none',
  successStatus: 200,
  emits: ['identity.session.revoked'],
  response: z.object({ revoked: z.number().int().min(0) }),
  handler: ({ actor, now, requestId }) => revokeOtherSessions(actorOfKind(actor, 'session'), now, requestId),
});

export const sessionOperations: AnyOperation[] = [getSession, listOwnSessions, revoke, revokeOthers];
