import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';
import { SESSION_STEP_UP_METHODS, WITH_STEP_UP } from './terms';

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

export const getSession = resourceContract({
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
});

export const listSessions = resourceContract({
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
});

export const revokeSession = resourceContract({
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
});

export const revokeOtherSessions = resourceContract({
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
});
