import { type AnyOperation, bindCollection, bindResource } from '@/lib/contract/operation';
import { acceptInvitation, createInvitation, listOrganizationInvitations, previewInvitation, resendInvitation, revokeInvitation } from './invitations';
import * as contract from './invitations.contract';

export const invitationOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationInvitations, ({ tenant, query, page, now }) => listOrganizationInvitations(tenant, query.status, page, now)),
  bindCollection(contract.listOrganizationInvitationsBearer, ({ tenant, query, page, now }) => listOrganizationInvitations(tenant, query.status, page, now)),
  bindResource(contract.createOrganizationInvitation, ({ actor, tenant, body, now, requestId }) => createInvitation(tenant, actor, body, now, requestId)),
  bindResource(contract.resendOrganizationInvitation, ({ actor, tenant, params, now, requestId }) =>
    resendInvitation(tenant, actor, params.invitation_id, now, requestId),
  ),
  bindResource(contract.revokeOrganizationInvitation, ({ actor, tenant, params, now, requestId }) =>
    revokeInvitation(tenant, actor, params.invitation_id, now, requestId),
  ),
  bindResource(contract.acceptOrganizationInvitation, ({ actor, body, now, requestId }) => acceptInvitation(actor, body.token, now, requestId)),
  bindResource(contract.previewOrganizationInvitation, ({ body, now }) => previewInvitation(body.token, now)),
];
