import { z } from 'zod';
import { GATED_CHANGE_NAMES } from '@/lib/contract/approvals';
import { inOrganization, nestedParams, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

const STATUSES = ['requested', 'approved', 'rejected', 'expired', 'cancelled'] as const;

const approval = z.object({
  id: z.string(),
  action: z.string(),
  target: z.string(),
  reason: z.string().nullable(),
  status: z.enum(STATUSES),
  requested_by: z.string(),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  consumed_at: z.string().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
});

export const listOrganizationApprovals = collectionContract({
  id: 'listOrganizationApprovals',
  method: 'GET',
  path: '/api/organizations/{id}/approvals',
  tag: TAG,
  summary: "The organization's approval requests, newest first (expired = requested and past its expiry)",
  auth: SESSION,
  tenant: inOrganization('approvals.decide'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  query: z.strictObject({ status: z.enum(STATUSES).optional() }),
  collection: 'approvals',
  item: approval,
  errorStatuses: [404],
});

export const requestOrganizationApproval = resourceContract({
  id: 'requestOrganizationApproval',
  method: 'POST',
  path: '/api/organizations/{id}/approvals',
  tag: TAG,
  summary: 'Request an approval for a gated change; another admin decides it within 24 hours',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('approvals.decide'),
  origin: 'required',
  idempotency: 'optional',
  params: organizationParams,
  body: z.strictObject({
    action: z.enum(GATED_CHANGE_NAMES),
    target: z.string().min(1).max(400),
    reason: z.string().max(500).optional(),
  }),
  successStatus: 201,
  errorStatuses: [404],
  response: approval,
});

export const decideOrganizationApproval = resourceContract({
  id: 'decideOrganizationApproval',
  method: 'POST',
  path: '/api/organizations/{id}/approvals/{approval_id}',
  tag: TAG,
  summary: 'Approve or reject (another admin than the requester) or cancel (the requester) an approval, once',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('approvals.decide'),
  origin: 'required',
  idempotency: 'optional',
  params: nestedParams('approval_id'),
  body: z.strictObject({ decision: z.enum(['approve', 'reject', 'cancel']) }),
  successStatus: 200,
  errorStatuses: [404, 409],
  response: approval,
});
