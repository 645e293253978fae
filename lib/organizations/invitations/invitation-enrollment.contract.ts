/**
 * Sign-up from an invitation link: an extension of the spec's enrollment (docs/decisions.md, "Sign-up
 * from an invitation"). The link's token proves the invited mailbox, so the enrollment starts with the
 * invited address already verified; the rest of the sign-up is the spec's enrollment, unchanged.
 */
import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';

export const startEnrollmentFromInvitation = resourceContract({
  id: 'startEnrollmentFromInvitation',
  method: 'POST',
  path: '/api/auth/enrollment/invitation',
  tag: 'Enrollment',
  summary:
    "Start enrollment from a pending invitation link: the invited address, verified by the link's token (no code is mailed); 409 when an account already uses it",
  auth: { kind: 'public' },
  origin: 'required',
  rateLimit: 'enrollment_start',
  idempotency: 'none',
  extension: true,
  /** The link's token, in the body so that it never sits in an API URL (or its access logs). */
  body: z.strictObject({ token: z.string().min(1).max(256) }),
  successStatus: 201,
  errorStatuses: [404, 409],
  response: z.object({ enrollment_token: z.string(), expires_at: z.string(), email: z.string() }),
});
