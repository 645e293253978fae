import { z } from 'zod';
import { POLICY_KEYS } from '@/lib/contract/policy-keys';
import { approvalQuery, inOrganization, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';
import { resourceContract } from '@/lib/contract/wire';

const policy = z.object({
  policy_key: z.string(),
  value: z.unknown(),
  default_value: z.unknown(),
  is_default: z.boolean(),
  description: z.string(),
  updated_at: z.string().nullable(),
});

const change = z.strictObject({
  policy_key: z.enum(POLICY_KEYS),
  // Validated against the key's own schema by the service (field errors under `value`).
  value: z.unknown(),
});

const setContract = (method: 'POST' | 'PATCH') =>
  resourceContract({
    id: method === 'POST' ? 'setOrganizationPolicy' : 'updateOrganizationPolicy',
    method,
    path: '/api/organizations/{id}/policies',
    tag: TAG,
    summary:
      method === 'POST'
        ? 'Set or replace a policy (loosening a policy is gated like its deletion; taking an action out of a non-empty approvals.required_for always needs an approval)'
        : 'Replace a policy that is set (404 when it is not)',
    auth: ORGANIZATION_STEP_UP,
    tenant: inOrganization('policies.manage'),
    origin: 'required',
    idempotency: 'optional',
    params: organizationParams,
    query: approvalQuery,
    body: change,
    successStatus: 200,
    errorStatuses: [404, 409],
    response: policy,
  });

export const listOrganizationPolicies = resourceContract({
  id: 'listOrganizationPolicies',
  method: 'GET',
  path: '/api/organizations/{id}/policies',
  tag: TAG,
  summary: 'Every policy of the catalogue with its effective value and default (the whole catalogue in one answer)',
  auth: SESSION,
  tenant: inOrganization('read'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({ policies: z.array(policy), has_more: z.literal(false), next_cursor: z.null() }),
});

export const deleteOrganizationPolicy = resourceContract({
  id: 'deleteOrganizationPolicy',
  method: 'DELETE',
  path: '/api/organizations/{id}/policies/{policy_key}',
  tag: TAG,
  summary: 'Remove a policy: its default applies again (gated by approvals.required_for: policies.delete; a non-empty approvals.required_for always)',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('policies.manage'),
  origin: 'required',
  idempotency: 'required',
  params: organizationParams.extend({ policy_key: z.string().max(100) }),
  query: approvalQuery,
  successStatus: 200,
  errorStatuses: [404],
  response: policy,
});

export const setOrganizationPolicy = setContract('POST');
export const updateOrganizationPolicy = setContract('PATCH');
