import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './domains.contract';
import { deleteDomainOf, listDomainsOf, registerDomain, verifyDomain } from './domains';

export const domainOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationDomains, ({ tenant, page, now }) => listDomainsOf(tenant, page, now)),
  // Organization-bound credentials read the verified domains only (pending claims are the console's business).
  bindCollection(contract.listBoundOrganizationDomains, ({ tenant, page, now }) => listDomainsOf(tenant, page, now, true)),
  bindResource(contract.registerOrganizationDomain, ({ tenant, actor, body, now, requestId }) => registerDomain(tenant, actor, body, now, requestId)),
  bindResource(contract.verifyOrganizationDomain, ({ tenant, actor, params, now, requestId }) => verifyDomain(tenant, actor, params.domain_id, now, requestId)),
  bindResource(contract.deleteOrganizationDomain, ({ tenant, actor, params, now, requestId }) =>
    deleteDomainOf(tenant, actor, params.domain_id, now, requestId),
  ),
];
