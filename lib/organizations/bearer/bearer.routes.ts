/**
 * Bearer organization reads (spec, "Bearer organization reads"): server-to-server, with an
 * organization-bound OAuth token (or API key). The pipeline requires the binding, refuses any other
 * organization (403) and resolves the owner's active membership before a handler runs.
 */
import { type AnyOperation, bindCollection, bindResource } from '@/lib/contract/operation';
import { boundOrganizations } from './bearer';
import { readOrganization } from '../lifecycle/organizations';
import * as contract from './bearer.contract';

export const bearerOrganizationOperations: AnyOperation[] = [
  bindCollection(contract.listBoundOrganizations, ({ tenant, page }) => boundOrganizations(tenant, page)),
  bindResource(contract.getBoundOrganization, ({ tenant }) => readOrganization(tenant)),
];
