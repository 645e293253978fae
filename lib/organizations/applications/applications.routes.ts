import { type AnyOperation, bindCollection, bindResource } from '@/lib/contract/operation';
import { assignApplication, listAssignmentsOf, unassignApplication } from './applications';
import * as contract from './applications.contract';

export const organizationApplicationOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationApplications, ({ tenant, page }) => listAssignmentsOf(tenant, page)),
  bindResource(contract.assignOrganizationApplication, ({ tenant, actor, body, now, requestId }) => assignApplication(tenant, actor, body, now, requestId)),
  bindResource(contract.unassignOrganizationApplication, ({ tenant, actor, params, now, requestId }) =>
    unassignApplication(tenant, actor, params.application_id, now, requestId),
  ),
];
