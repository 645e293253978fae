/**
 * Leaving and deleting an organization: not in the spec's endpoint list, so declared as extensions
 * (docs/decisions.md, "Leaving and deleting an organization").
 */
import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { tenantOf } from '@/lib/contract/tenant';
import { deleteOrganization, leaveOrganization } from './organization-lifecycle';
import { inOrganization, ORGANIZATION_STEP_UP, organizationParams, TAG } from './terms';

export const organizationLifecycleOperations: AnyOperation[] = [
  defineOperation({
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
    handler: ({ actor, tenant, now, requestId }) => leaveOrganization(tenantOf(tenant), actorOfKind(actor, 'session'), now, requestId),
  }),
  defineOperation({
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
    handler: ({ actor, tenant, body, now, requestId }) =>
      deleteOrganization(tenantOf(tenant), actorOfKind(actor, 'session'), body.confirm_name, now, requestId),
  }),
];
