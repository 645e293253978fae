import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';
import { sessionViewSchema } from './sessions.contract';
import { emailField } from './terms';

const TAG = 'Sign-in, sessions, step-up';
export const stepUpSchema = z.object({ step_up_at: z.string(), step_up_method: z.enum(['passkey', 'password']) });

export const signInWithPassword = resourceContract({
  id: 'signInWithPassword',
  method: 'POST',
  path: '/api/auth/signin/password',
  tag: TAG,
  summary: 'Sign in with e-mail and password (generic failure, rate limits, lockout)',
  auth: { kind: 'public' },
  origin: 'required',
  rateLimit: 'signin',
  subjectRateLimit: { bucket: 'signin_account', subject: ({ body }) => body.email },
  idempotency: 'none',
  acceptsForm: true,
  startsSession: 'password',
  body: z.object({ email: emailField, password: z.string().min(1).max(1024) }),
  successStatus: 201,
  errorStatuses: [401],
  emits: ['identity.session.revoked'],
  response: sessionViewSchema,
});

export const startEmailCodeSignIn = resourceContract({
  id: 'startEmailCodeSignIn',
  method: 'POST',
  path: '/api/auth/signin/email-otp/start',
  tag: TAG,
  summary: 'Mail a single-use sign-in code (always 202 with the same body)',
  auth: { kind: 'public' },
  origin: 'required',
  rateLimit: 'enrollment_start',
  subjectRateLimit: { bucket: 'mail_per_address', subject: ({ body }) => `signin:${body.email}` },
  idempotency: 'none',
  body: z.object({ email: emailField }),
  successStatus: 202,
  errorStatuses: [503],
  response: z.object({ challenge_id: z.string(), expires_at: z.string() }),
});

export const completeEmailCodeSignIn = resourceContract({
  id: 'completeEmailCodeSignIn',
  method: 'POST',
  path: '/api/auth/signin/email-otp/complete',
  tag: TAG,
  summary: 'Sign in with the mailed code',
  auth: { kind: 'public' },
  origin: 'required',
  rateLimit: 'code_attempts',
  idempotency: 'none',
  startsSession: 'email_code',
  body: z.object({ challenge_id: z.uuid(), code: z.string().regex(/^\d{6}$/, 'Enter the six-digit code.') }),
  successStatus: 201,
  emits: ['identity.session.revoked'],
  response: sessionViewSchema,
});

export const stepUpWithPassword = resourceContract({
  id: 'stepUpWithPassword',
  method: 'POST',
  path: '/api/auth/step-up/password',
  tag: TAG,
  summary: 'Re-authenticate with the password; records the step-up time on the session and renews its cookie',
  auth: { kind: 'session' },
  origin: 'required',
  rateLimit: 'signin',
  subjectRateLimit: { bucket: 'signin_account', subject: ({ actor }) => `user:${actor.userId}` },
  idempotency: 'none',
  body: z.object({ password: z.string().min(1).max(1024) }),
  successStatus: 200,
  errorStatuses: [401],
  response: stepUpSchema,
});
