import { type AnyOperation, bindResource } from '@/lib/contract/operation';
import { changeRole, createRole, deleteRole, listRoles } from './roles';
import * as contract from './roles.contract';

export const roleOperations: AnyOperation[] = [
  bindResource(contract.listOrganizationRoles, ({ tenant }) => listRoles(tenant)),
  bindResource(contract.createOrganizationRole, ({ tenant, actor, body, now, requestId }) => createRole(tenant, actor, body, now, requestId)),
  bindResource(contract.updateOrganizationRole, ({ tenant, actor, params, body, now, requestId }) =>
    changeRole(tenant, actor, params.role_id, body, now, requestId),
  ),
  bindResource(contract.deleteOrganizationRole, ({ tenant, actor, params, now, requestId }) => deleteRole(tenant, actor, params.role_id, now, requestId)),
];
