import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './members.contract';
import { changeMember, listOrganizationMembers, revokeMember } from './members';

export const memberOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationMembers, ({ tenant, query, page }) => listOrganizationMembers(tenant, query.status, page)),
  bindCollection(contract.listOrganizationMembersBearer, ({ tenant, query, page }) => listOrganizationMembers(tenant, query.status, page)),
  bindResource(contract.updateOrganizationMember, ({ actor, tenant, params, query, body, now, requestId }) =>
    changeMember(tenant, actor, params.member_id, body, query.approval_id, now, requestId),
  ),
  bindResource(contract.revokeOrganizationMember, ({ actor, tenant, params, query, now, requestId }) =>
    revokeMember(tenant, actor, params.member_id, query.approval_id, now, requestId),
  ),
];
