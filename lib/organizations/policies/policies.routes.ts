import { bindResource, type AnyOperation, type ResourceHandlerOf } from '@/lib/contract/operation';
import { deleteOrganizationPolicy, listOrganizationPolicies, setOrganizationPolicy } from './policies';
import * as contract from './policies.contract';

/** POST sets or replaces a policy, PATCH replaces one that is set: one service, two modes. */
const setPolicy =
  (mode: 'set' | 'replace'): ResourceHandlerOf<typeof contract.setOrganizationPolicy> =>
  ({ actor, tenant, body, query, now, requestId }) =>
    setOrganizationPolicy(tenant, actor, { policyKey: body.policy_key, value: body.value, mode, approvalId: query.approval_id }, now, requestId);

export const policyOperations: AnyOperation[] = [
  bindResource(contract.listOrganizationPolicies, ({ tenant }) => listOrganizationPolicies(tenant)),
  bindResource(contract.setOrganizationPolicy, setPolicy('set')),
  bindResource(contract.updateOrganizationPolicy, setPolicy('replace')),
  bindResource(contract.deleteOrganizationPolicy, ({ actor, tenant, params, query, now, requestId }) =>
    deleteOrganizationPolicy(tenant, actor, params.policy_key, query.approval_id, now, requestId),
  ),
];
