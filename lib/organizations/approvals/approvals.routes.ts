import { type AnyOperation, bindCollection, bindResource } from '@/lib/contract/operation';
import { decideOrganizationApproval, listOrganizationApprovals, requestApproval } from './approvals';
import * as contract from './approvals.contract';

export const approvalOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationApprovals, ({ tenant, query, page, now }) => listOrganizationApprovals(tenant, query.status, page, now)),
  bindResource(contract.requestOrganizationApproval, ({ actor, tenant, body, now, requestId }) => requestApproval(tenant, actor, body, now, requestId)),
  bindResource(contract.decideOrganizationApproval, ({ actor, tenant, params, body, now, requestId }) =>
    decideOrganizationApproval(tenant, actor, params.approval_id, body.decision, now, requestId),
  ),
];
