import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import { changeOrganization, createOrganization, listMyOrganizations, readOrganization } from './organizations';
import * as contract from './organizations.contract';

export const organizationOperations: AnyOperation[] = [
  bindCollection(contract.listSessionOrganizations, ({ actor, page }) => listMyOrganizations(actor.userId, page)),
  bindCollection(contract.listOrganizations, ({ actor, page }) => listMyOrganizations(actor.userId, page)),
  bindResource(contract.createOrganization, ({ actor, body, now, requestId }) => createOrganization(actor, body, now, requestId)),
  bindResource(contract.getOrganization, ({ tenant }) => readOrganization(tenant)),
  bindResource(contract.updateOrganization, ({ actor, tenant, body, now, requestId }) => changeOrganization(tenant, actor, body, now, requestId)),
];
