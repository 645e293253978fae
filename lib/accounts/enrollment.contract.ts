import { z } from 'zod';
import { displayName } from '@/lib/contract/text';
import { resourceContract } from '@/lib/contract/wire';
import { emailField } from './terms';

const TAG = 'Enrollment';
const code = z.string().regex(/^\d{6}$/, 'Enter the six-digit code.');

export const startEnrollment = resourceContract({
  id: 'startEnrollment',
  method: 'POST',
  path: '/api/auth/enrollment/start',
  tag: TAG,
  summary: 'Start verified-email enrollment (always 202 with the same body)',
  auth: { kind: 'public' },
  origin: 'required',
  rateLimit: 'enrollment_start',
  subjectRateLimit: { bucket: 'mail_per_address', subject: ({ body }) => `enrollment:${body.email}` },
  idempotency: 'none',
  acceptsForm: true,
  body: z.object({ email: emailField }),
  successStatus: 202,
  errorStatuses: [503],
  response: z.object({ enrollment_token: z.string(), expires_at: z.string() }),
});

export const verifyEnrollmentEmail = resourceContract({
  id: 'verifyEnrollmentEmail',
  method: 'POST',
  path: '/api/auth/enrollment/verify-email',
  tag: TAG,
  summary: 'Verify the six-digit e-mail code (10 minutes, single use; 5 wrong codes per address per 15 minutes)',
  auth: { kind: 'enrollment_token' },
  origin: 'required',
  rateLimit: 'code_attempts',
  idempotency: 'none',
  body: z.object({ code }),
  successStatus: 200,
  response: z.object({ email_verified: z.literal(true) }),
});

export const resendEnrollmentEmail = resourceContract({
  id: 'resendEnrollmentEmail',
  method: 'POST',
  path: '/api/auth/enrollment/resend-email',
  tag: TAG,
  summary: 'Send a replacement verification code (the previous one stops working)',
  auth: { kind: 'enrollment_token' },
  origin: 'required',
  subjectRateLimit: { bucket: 'code_resend', subject: ({ actor }) => `enrollment:${actor.enrollmentId}` },
  idempotency: 'none',
  successStatus: 200,
  errorStatuses: [409, 503],
  response: z.object({ expires_at: z.string() }),
});

export const completePasswordEnrollment = resourceContract({
  id: 'completePasswordEnrollment',
  method: 'POST',
  path: '/api/auth/enrollment/password/complete',
  tag: TAG,
  summary: 'Create the account with a password (no session is issued)',
  auth: { kind: 'enrollment_token' },
  origin: 'required',
  idempotency: 'none',
  body: z.object({ password: z.string().min(1).max(1024), display_name: displayName.optional() }),
  successStatus: 201,
  errorStatuses: [409, 503],
  emits: ['identity.user.created'],
  response: z.object({ user_id: z.string() }),
});
