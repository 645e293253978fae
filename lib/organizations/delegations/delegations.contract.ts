import { z } from 'zod';
import { DELEGABLE_PERMISSIONS, type Permission } from '@/lib/contract/permissions';
import { instant } from '@/lib/contract/instant';
import { inOrganization, nestedParams, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

const grant = z.object({
  id: z.string(),
  membership_id: z.string(),
  user_id: z.string(),
  email: z.string(),
  permissions: z.array(z.string()),
  expires_at: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
  created_at: z.string(),
});
const delegable = z.enum(DELEGABLE_PERMISSIONS as [Permission, ...Permission[]]);

export const listOrganizationDelegatedAdmins = collectionContract({
  id: 'listOrganizationDelegatedAdmins',
  method: 'GET',
  path: '/api/organizations/{id}/delegated-admins',
  tag: TAG,
  summary: 'Delegated-admin grants of every status (active, expired, revoked)',
  auth: SESSION,
  tenant: inOrganization('delegations.manage'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  collection: 'delegated_admins',
  item: grant,
  errorStatuses: [404],
});

export const createOrganizationDelegatedAdmin = resourceContract({
  id: 'createOrganizationDelegatedAdmin',
  method: 'POST',
  path: '/api/organizations/{id}/delegated-admins',
  tag: TAG,
  summary: 'Grant an active member a subset of the admin permissions, optionally until expires_at (owner only; approval-gated by policy)',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('delegations.manage', { ownerOnly: true }),
  origin: 'required',
  idempotency: 'required',
  params: organizationParams,
  body: z.strictObject({
    membership_id: z.uuid(),
    permissions: z
      .array(delegable)
      .min(1, 'Grant at least one permission.')
      .max(DELEGABLE_PERMISSIONS.length * 2),
    expires_at: instant.optional(),
    approval_id: z.string().max(100).optional(),
  }),
  successStatus: 201,
  errorStatuses: [404],
  response: grant,
});

export const revokeOrganizationDelegatedAdmin = resourceContract({
  id: 'revokeOrganizationDelegatedAdmin',
  method: 'DELETE',
  path: '/api/organizations/{id}/delegated-admins/{delegation_id}',
  tag: TAG,
  summary: 'Revoke a delegated-admin grant',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('delegations.manage'),
  origin: 'required',
  idempotency: 'required',
  params: nestedParams('delegation_id'),
  successStatus: 200,
  errorStatuses: [404, 409],
  response: z.object({ revoked: z.literal(true) }),
});
