import { z } from 'zod';
import { displayName, oneLineText } from '@/lib/contract/text';
import { resourceContract } from '@/lib/contract/wire';
import { sessionViewSchema } from './sessions.contract';
import { stepUpSchema } from './signin.contract';
import { credentialIdField, transportsField, WITH_STEP_UP } from './terms';

/**
 * The browser library's JSON (unwrapped), shape-checked here and verified cryptographically later.
 * One schema for registration and sign-in, so an id that registers can always sign in.
 */
const credential = z.looseObject({
  id: credentialIdField,
  rawId: credentialIdField,
  type: z.literal('public-key'),
  response: z.looseObject({ transports: transportsField.optional() }),
});
const ceremonyBody = z.object({ challenge_id: z.uuid(), credential });
const optionsResponse = z.object({ options: z.record(z.string(), z.unknown()), challenge_id: z.string() });
const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  device_type: z.string(),
  backed_up: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
const passkeyName = oneLineText(64);
const base = { method: 'POST', origin: 'required', idempotency: 'none' } as const;

export const enrollmentPasskeyOptions = resourceContract({
  ...base,
  id: 'enrollmentPasskeyOptions',
  path: '/api/auth/enrollment/passkey/options',
  tag: 'Enrollment',
  summary: 'One-time WebAuthn registration options (403 until the e-mail is verified)',
  auth: { kind: 'enrollment_token' },
  rateLimit: 'passkey_options',
  successStatus: 200,
  response: optionsResponse,
});

export const completePasskeyEnrollment = resourceContract({
  ...base,
  id: 'completePasskeyEnrollment',
  path: '/api/auth/enrollment/passkey/complete',
  tag: 'Enrollment',
  summary: 'Verify and persist the passkey, creating the account (no session is issued)',
  auth: { kind: 'enrollment_token' },
  body: ceremonyBody.extend({ display_name: displayName.optional() }),
  successStatus: 201,
  errorStatuses: [409],
  emits: ['identity.user.created', 'identity.passkey.added'],
  response: z.object({ user_id: z.string() }),
});

export const signInPasskeyOptions = resourceContract({
  ...base,
  id: 'signInPasskeyOptions',
  path: '/api/auth/signin/passkey/options',
  tag: 'Sign-in, sessions, step-up',
  summary: 'One-time challenge for usernameless passkey sign-in',
  auth: { kind: 'public' },
  rateLimit: 'passkey_options',
  successStatus: 200,
  response: optionsResponse,
});

export const signInWithPasskey = resourceContract({
  ...base,
  id: 'signInWithPasskey',
  path: '/api/auth/signin/passkey/complete',
  tag: 'Sign-in, sessions, step-up',
  summary: 'Verify the assertion and issue a session cookie',
  auth: { kind: 'public' },
  rateLimit: 'signin',
  startsSession: 'passkey',
  body: ceremonyBody,
  successStatus: 201,
  errorStatuses: [401, 409],
  emits: ['identity.session.revoked'],
  response: sessionViewSchema,
});

export const stepUpPasskeyOptions = resourceContract({
  ...base,
  id: 'stepUpPasskeyOptions',
  path: '/api/auth/step-up/passkey/options',
  tag: 'Sign-in, sessions, step-up',
  summary: 'Step-up challenge for one of your passkeys',
  auth: { kind: 'session' },
  rateLimit: 'passkey_options',
  successStatus: 200,
  errorStatuses: [409],
  response: optionsResponse,
});

export const stepUpWithPasskey = resourceContract({
  ...base,
  id: 'stepUpWithPasskey',
  path: '/api/auth/step-up/passkey/complete',
  tag: 'Sign-in, sessions, step-up',
  summary: 'Complete passkey step-up; records the step-up time on the session and renews its cookie',
  auth: { kind: 'session' },
  rateLimit: 'signin',
  body: ceremonyBody,
  successStatus: 200,
  errorStatuses: [401],
  response: stepUpSchema,
});

export const recoveryPasskeyOptions = resourceContract({
  ...base,
  id: 'recoveryPasskeyOptions',
  path: '/api/auth/recovery/passkey/options',
  tag: 'Recovery',
  summary: 'Registration options for a replacement passkey (after the recovery code is verified)',
  auth: { kind: 'recovery_token' },
  rateLimit: 'passkey_options',
  successStatus: 200,
  response: optionsResponse,
});

export const completePasskeyRecovery = resourceContract({
  ...base,
  id: 'completePasskeyRecovery',
  path: '/api/auth/recovery/passkey/complete',
  tag: 'Recovery',
  summary: 'Register the replacement passkey, sign out every session and notify the owner',
  auth: { kind: 'recovery_token' },
  body: ceremonyBody,
  successStatus: 201,
  errorStatuses: [409],
  emits: ['identity.session.revoked', 'identity.passkey.added'],
  response: z.object({ user_id: z.string() }),
});

export const listOwnPasskeys = resourceContract({
  id: 'listOwnPasskeys',
  method: 'GET',
  path: '/api/auth/passkeys',
  tag: 'Account',
  summary: 'List your passkeys',
  extension: true,
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  successStatus: 200,
  response: z.object({ passkeys: z.array(passkeySchema) }),
});

export const addPasskeyOptions = resourceContract({
  ...base,
  id: 'addPasskeyOptions',
  path: '/api/auth/passkeys/options',
  tag: 'Account',
  summary: 'Registration options for adding a passkey to your account',
  extension: true,
  auth: WITH_STEP_UP,
  rateLimit: 'passkey_options',
  successStatus: 200,
  response: optionsResponse,
});

export const addPasskey = resourceContract({
  ...base,
  id: 'addPasskey',
  path: '/api/auth/passkeys',
  tag: 'Account',
  summary: 'Add a passkey to your account',
  extension: true,
  auth: WITH_STEP_UP,
  body: ceremonyBody.extend({ name: passkeyName.optional() }),
  successStatus: 201,
  errorStatuses: [409],
  emits: ['identity.passkey.added'],
  response: passkeySchema,
});

export const renamePasskey = resourceContract({
  ...base,
  method: 'PATCH',
  id: 'renamePasskey',
  path: '/api/auth/passkeys/{passkey_id}',
  tag: 'Account',
  summary: 'Rename one of your passkeys',
  extension: true,
  auth: WITH_STEP_UP,
  params: z.object({ passkey_id: z.uuid() }),
  body: z.object({ name: passkeyName }),
  successStatus: 200,
  errorStatuses: [404],
  response: passkeySchema,
});

export const removePasskey = resourceContract({
  ...base,
  method: 'DELETE',
  id: 'removePasskey',
  path: '/api/auth/passkeys/{passkey_id}',
  tag: 'Account',
  summary: 'Remove one of your passkeys (never the last credential of the account)',
  extension: true,
  auth: WITH_STEP_UP,
  params: z.object({ passkey_id: z.uuid() }),
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.passkey.removed'],
  response: z.object({ removed: z.literal(true) }),
});
