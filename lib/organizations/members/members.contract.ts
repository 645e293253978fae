import { z } from 'zod';
import { collectionContract, resourceContract } from '@/lib/contract/wire';
import { approvalQuery, BEARER_TAG, inOrganization, nestedParams, ORGANIZATION_BEARER, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';

export const MEMBER_STATUSES = ['active', 'suspended', 'revoked'] as const;

export const memberItem = z.object({
  id: z.string(),
  user_id: z.string(),
  email: z.string(),
  display_name: z.string().nullable(),
  role: z.string(),
  role_name: z.string(),
  status: z.enum(MEMBER_STATUSES),
  /** A directory (SCIM) provisioned the person and manages the membership: change it there. */
  managed_by_directory: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

const memberParams = nestedParams('member_id');
const listQuery = z.strictObject({ status: z.enum(MEMBER_STATUSES).optional() });

export const listOrganizationMembers = collectionContract({
  id: 'listOrganizationMembers',
  method: 'GET',
  path: '/api/organizations/{id}/members',
  tag: TAG,
  summary: "The organization's members (active and suspended unless `status` says otherwise)",
  auth: SESSION,
  tenant: inOrganization('read'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  query: listQuery,
  collection: 'members',
  item: memberItem,
  errorStatuses: [404],
});

export const listOrganizationMembersBearer = collectionContract({
  id: 'listOrganizationMembersBearer',
  method: 'GET',
  path: '/api/v1/organizations/{id}/members',
  tag: BEARER_TAG,
  summary: "The bound organization's members (active and suspended unless `status` says otherwise)",
  auth: ORGANIZATION_BEARER('identity.organization.read'),
  tenant: inOrganization('read'),
  origin: 'none',
  idempotency: 'none',
  params: organizationParams,
  query: listQuery,
  collection: 'members',
  item: memberItem,
});

export const updateOrganizationMember = resourceContract({
  id: 'updateOrganizationMember',
  method: 'PATCH',
  path: '/api/organizations/{id}/members/{member_id}',
  tag: TAG,
  summary: "Change a member's role or status (only an owner changes an owner; the last active owner stays); suspending may need an approval (`members.remove`)",
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('members.manage'),
  origin: 'required',
  idempotency: 'optional',
  params: memberParams,
  query: approvalQuery,
  body: z.strictObject({ role: z.string().min(1).max(64).optional(), status: z.enum(['active', 'suspended']).optional() }),
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.organization.member.updated'],
  response: memberItem,
});

export const revokeOrganizationMember = resourceContract({
  id: 'revokeOrganizationMember',
  method: 'DELETE',
  path: '/api/organizations/{id}/members/{member_id}',
  tag: TAG,
  summary: 'Revoke a membership (the user account stays); may need an approval (`members.remove`)',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('members.manage'),
  origin: 'required',
  idempotency: 'optional',
  params: memberParams,
  query: approvalQuery,
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.organization.member.removed'],
  response: z.object({ revoked: z.literal(true) }),
});
