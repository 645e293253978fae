import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';
import { emailField } from './terms';

const TAG = 'Recovery';

export const startRecovery = resourceContract({
  id: 'startRecovery',
  method: 'POST',
  path: '/api/auth/recovery/start',
  tag: TAG,
  summary: 'Start account recovery by e-mail (always 202 with the same body)',
  auth: { kind: 'public' },
  origin: 'required',
  rateLimit: 'enrollment_start',
  subjectRateLimit: { bucket: 'mail_per_address', subject: ({ body }) => `recovery:${body.email}` },
  idempotency: 'none',
  body: z.object({ email: emailField }),
  successStatus: 202,
  errorStatuses: [503],
  response: z.object({ recovery_token: z.string(), expires_at: z.string() }),
});

export const resendRecoveryCode = resourceContract({
  id: 'resendRecoveryCode',
  method: 'POST',
  path: '/api/auth/recovery/resend',
  tag: TAG,
  summary: 'Send a replacement recovery code',
  auth: { kind: 'recovery_token' },
  origin: 'required',
  subjectRateLimit: { bucket: 'code_resend', subject: ({ actor }) => `recovery:${actor.recoveryId}` },
  idempotency: 'none',
  successStatus: 200,
  errorStatuses: [409, 503],
  response: z.object({ expires_at: z.string() }),
});

export const verifyRecovery = resourceContract({
  id: 'verifyRecovery',
  method: 'POST',
  path: '/api/auth/recovery/verify',
  tag: TAG,
  summary: 'Verify the recovery code (issues no session)',
  auth: { kind: 'recovery_token' },
  origin: 'required',
  rateLimit: 'code_attempts',
  idempotency: 'none',
  body: z.object({ code: z.string().regex(/^\d{6}$/, 'Enter the six-digit code.') }),
  successStatus: 200,
  response: z.object({ verified: z.literal(true) }),
});

export const completePasswordRecovery = resourceContract({
  id: 'completePasswordRecovery',
  method: 'POST',
  path: '/api/auth/recovery/password/complete',
  tag: TAG,
  summary: 'Recover by setting a new password (for people without a passkey device); signs out every session',
  extension: true,
  auth: { kind: 'recovery_token' },
  origin: 'required',
  idempotency: 'none',
  body: z.object({ password: z.string().min(1).max(1024) }),
  successStatus: 200,
  errorStatuses: [409, 503],
  emits: ['identity.password.changed', 'identity.session.revoked'],
  response: z.object({ user_id: z.string() }),
});
