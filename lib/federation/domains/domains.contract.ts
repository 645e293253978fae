import { z } from 'zod';
import { collectionContract, resourceContract } from '@/lib/contract/wire';
import {
  BEARER_TAG,
  inOrganization,
  nestedParams,
  ORGANIZATION_BEARER,
  ORGANIZATION_STEP_UP,
  organizationParams,
  SESSION,
  TAG,
} from '@/lib/contract/organization-terms';

export const domain = z.object({
  id: z.string(),
  domain: z.string(),
  status: z.enum(['pending', 'verified', 'failed']),
  /** The record to publish: it stays in place while the domain is in use (verification may be repeated). */
  verification: z.object({ record_type: z.literal('TXT'), name: z.string(), value: z.string() }),
  /** Until when a pending claim can be verified; null once verified. */
  verify_before: z.string().nullable(),
  verified_at: z.string().nullable(),
  created_at: z.string(),
});

const domainParams = nestedParams('domain_id');
const mutation = { tag: TAG, auth: ORGANIZATION_STEP_UP, tenant: inOrganization('domains.manage'), origin: 'required' } as const;

export const listOrganizationDomains = collectionContract({
  tag: TAG,
  auth: SESSION,
  tenant: inOrganization('read'),
  origin: 'if-present',
  idempotency: 'none',
  id: 'listOrganizationDomains',
  method: 'GET',
  path: '/api/organizations/{id}/domains',
  summary: "The organization's domains: pending, verified and failed claims, each with its TXT record",
  params: organizationParams,
  collection: 'domains',
  item: domain,
  errorStatuses: [404],
});

export const listBoundOrganizationDomains = collectionContract({
  tag: BEARER_TAG,
  auth: ORGANIZATION_BEARER('identity.organization.read'),
  tenant: inOrganization('read'),
  origin: 'none',
  idempotency: 'none',
  id: 'listBoundOrganizationDomains',
  method: 'GET',
  path: '/api/v1/organizations/{id}/domains',
  summary: "The bound organization's verified domains",
  params: organizationParams,
  collection: 'domains',
  item: domain,
  errorStatuses: [403],
});

export const registerOrganizationDomain = resourceContract({
  ...mutation,
  idempotency: 'optional',
  id: 'registerOrganizationDomain',
  method: 'POST',
  path: '/api/organizations/{id}/domains',
  summary: 'Claim a domain: the answer names the TXT record to publish (public mail domains are refused)',
  params: organizationParams,
  body: z.strictObject({ domain: z.string().min(1).max(253) }),
  successStatus: 201,
  errorStatuses: [404, 409],
  response: domain,
});

export const verifyOrganizationDomain = resourceContract({
  ...mutation,
  idempotency: 'optional',
  id: 'verifyOrganizationDomain',
  method: 'POST',
  path: '/api/organizations/{id}/domains/{domain_id}/verify',
  summary: 'Look up the TXT record (bounded in time); 422 domain_verification_failed says what was found',
  params: domainParams,
  successStatus: 200,
  errorStatuses: [404, 409, 422],
  emits: ['identity.organization.domain.verified'],
  response: domain,
});

export const deleteOrganizationDomain = resourceContract({
  ...mutation,
  idempotency: 'required',
  id: 'deleteOrganizationDomain',
  method: 'DELETE',
  path: '/api/organizations/{id}/domains/{domain_id}',
  summary: 'Delete a domain claim (409 while an active federation connection relies on it)',
  params: domainParams,
  successStatus: 200,
  errorStatuses: [404, 409],
  response: z.object({ deleted: z.literal(true) }),
});
