import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import { addGroupMember, createGroup, deleteGroupOf, listGroupMembersOf, listGroupsOf, removeGroupMember, renameGroupOf } from './groups';
import * as contract from './groups.contract';

export const groupOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationGroups, ({ tenant, page }) => listGroupsOf(tenant, page)),
  bindCollection(contract.listOrganizationGroupMembers, ({ tenant, params, page }) => listGroupMembersOf(tenant, params.group_id, page)),
  bindCollection(contract.listBearerOrganizationGroups, ({ tenant, page }) => listGroupsOf(tenant, page)),
  bindCollection(contract.listBearerOrganizationGroupMembers, ({ tenant, params, page }) => listGroupMembersOf(tenant, params.group_id, page)),
  bindResource(contract.createOrganizationGroup, ({ tenant, actor, body, now, requestId }) => createGroup(tenant, actor, body, now, requestId)),
  bindResource(contract.renameOrganizationGroup, ({ tenant, actor, params, body, now, requestId }) =>
    renameGroupOf(tenant, actor, params.group_id, body, now, requestId),
  ),
  bindResource(contract.deleteOrganizationGroup, ({ tenant, actor, params, now, requestId }) => deleteGroupOf(tenant, actor, params.group_id, now, requestId)),
  bindResource(contract.addOrganizationGroupMember, ({ tenant, actor, params, body, now, requestId }) =>
    addGroupMember(tenant, actor, params.group_id, body, now, requestId),
  ),
  bindResource(contract.removeOrganizationGroupMember, ({ tenant, actor, params, now, requestId }) =>
    removeGroupMember(tenant, actor, params.group_id, params.membership_id, now, requestId),
  ),
];
