import { type AnyOperation, bindCollection, bindResource } from '@/lib/contract/operation';
import { createDelegation, listDelegations, revokeDelegation } from './delegations';
import * as contract from './delegations.contract';

export const delegationOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationDelegatedAdmins, ({ tenant, page, now }) => listDelegations(tenant, page, now)),
  bindResource(contract.createOrganizationDelegatedAdmin, ({ tenant, actor, body, now, requestId }) => createDelegation(tenant, actor, body, now, requestId)),
  bindResource(contract.revokeOrganizationDelegatedAdmin, ({ tenant, actor, params, now, requestId }) =>
    revokeDelegation(tenant, actor, params.delegation_id, now, requestId),
  ),
];
