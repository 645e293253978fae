import { type AnyOperation, bindResource } from '@/lib/contract/operation';
import { deleteOrganization, leaveOrganization } from './organization-lifecycle';
import * as contract from './organization-lifecycle.contract';

export const organizationLifecycleOperations: AnyOperation[] = [
  bindResource(contract.leaveOrganization, ({ actor, tenant, now, requestId }) => leaveOrganization(tenant, actor, now, requestId)),
  bindResource(contract.deleteOrganization, ({ actor, tenant, body, now, requestId }) => deleteOrganization(tenant, actor, body.confirm_name, now, requestId)),
];
