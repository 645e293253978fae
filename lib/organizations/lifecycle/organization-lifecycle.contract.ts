/**
 * Leaving and deleting an organization: not in the spec's endpoint list, so declared as extensions
 * (docs/decisions.md, "Leaving and deleting an organization").
 */
import { z } from 'zod';
import { inOrganization, ORGANIZATION_STEP_UP, organizationParams, TAG } from '../terms';
import { resourceContract } from '@/lib/contract/wire';

export const leaveOrganization = resourceContract({
  id: 'leaveOrganization',
  method: 'POST',
  path: '/api/organizations/{id}/leave',
  tag: TAG,
  summary:
    'Leave the organization: your membership is revoked, with your groups, delegated grants and the OAuth grants bound to it; the last active owner cannot leave (409)',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('read'),
  origin: 'required',
  idempotency: 'optional',
  extension: true,
  params: organizationParams,
  body: z.strictObject({}),
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.organization.member.removed'],
  response: z.object({ left: z.literal(true), organization_id: z.string() }),
});

export const deleteOrganization = resourceContract({
  id: 'deleteOrganization',
  method: 'DELETE',
  path: '/api/organizations/{id}',
  tag: TAG,
  summary:
    'Delete the organization (owner only, naming it in `confirm_name`): its memberships, invitations, groups, roles, policies and approvals go, and every OAuth grant bound to it ends; no webhook event',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('settings.manage', { ownerOnly: true }),
  origin: 'required',
  idempotency: 'optional',
  extension: true,
  params: organizationParams,
  body: z.strictObject({ confirm_name: z.string().min(1).max(200) }),
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({
    deleted: z.literal(true),
    members_removed: z.number().int(),
    invitations_revoked: z.number().int(),
    grants_revoked: z.number().int(),
  }),
});
