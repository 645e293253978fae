/**
 * Account deletion requests (spec, Identity profile and privacy; states table): the person asks, and
 * may cancel while it is pending; nothing is deleted by these calls. An operator completes a request
 * (`npm run privacy:review`), which erases the account's data in every context.
 */
import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';
import type { SessionTerm } from '@/lib/contract/wire';

const TAG = 'Identity profile and privacy';

/** The spec's "recent passkey step-up": a passkey when the account has one, a password otherwise. */
const DELETION_STEP_UP: SessionTerm = { kind: 'session', stepUp: { methods: ['passkey', 'password'], passkeyWhenEnrolled: true } };

export const deletionRequestView = z.object({
  id: z.string(),
  status: z.enum(['pending', 'cancelled', 'completed']),
  requested_at: z.string(),
  cancelled_at: z.string().nullable(),
});

/** What keeps an operator from completing the request now: the person is an organization's only owner. */
const blocker = z.object({ organization_id: z.string(), organization_name: z.string(), reason: z.literal('sole_owner') });

const answer = z.object({ deletion_request: deletionRequestView.nullable(), blocked_by: z.array(blocker) });

export const getDeletionRequest = resourceContract({
  id: 'getDeletionRequest',
  method: 'GET',
  path: '/api/auth/privacy/deletion-request',
  tag: TAG,
  summary: "Your latest deletion request's metadata (or null), and what would keep it from completing; starts nothing",
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  successStatus: 200,
  response: answer,
});

export const requestAccountDeletion = resourceContract({
  id: 'requestAccountDeletion',
  method: 'POST',
  path: '/api/auth/privacy/deletion-request',
  tag: TAG,
  summary: 'Ask for your account to be deleted (confirmation DELETE_MY_ACCOUNT); 202, nothing is deleted yet; 409 while one is pending',
  auth: DELETION_STEP_UP,
  origin: 'required',
  idempotency: 'required',
  body: z.strictObject({ confirmation: z.literal('DELETE_MY_ACCOUNT', { message: 'Type DELETE_MY_ACCOUNT to confirm.' }) }),
  successStatus: 202,
  errorStatuses: [409],
  emits: ['identity.privacy.deletion.requested'],
  response: answer,
});

export const cancelAccountDeletion = resourceContract({
  id: 'cancelAccountDeletion',
  method: 'POST',
  path: '/api/auth/privacy/deletion-request/cancel',
  tag: TAG,
  summary: 'Cancel your pending deletion request (confirmation CANCEL_DELETION); 404 when none is pending',
  auth: DELETION_STEP_UP,
  origin: 'required',
  idempotency: 'required',
  body: z.strictObject({ confirmation: z.literal('CANCEL_DELETION', { message: 'Type CANCEL_DELETION to confirm.' }) }),
  successStatus: 200,
  errorStatuses: [404],
  emits: ['identity.privacy.deletion.cancelled'],
  response: answer,
});
