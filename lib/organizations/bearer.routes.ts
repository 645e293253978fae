/**
 * Bearer organization reads (spec, "Bearer organization reads"): server-to-server, with an
 * organization-bound OAuth token (or API key). The pipeline requires the binding, refuses any other
 * organization (403) and resolves the owner's active membership before a handler runs.
 */
import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { defineCollection, defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { PERMISSIONS } from '@/lib/contract/permissions';
import { tenantOf } from '@/lib/contract/tenant';
import { boundOrganizations, organizationDomains } from './bearer';
import { readOrganization } from './organizations';
import { BEARER_TAG, inOrganization, ORGANIZATION_BEARER, organizationParams } from './terms';

const READ = ORGANIZATION_BEARER('identity.organization.read');
const bearerRead = { tag: BEARER_TAG, auth: READ, origin: 'none', idempotency: 'none' } as const;

export const bearerOrganizationOperations: AnyOperation[] = [
  defineCollection({
    ...bearerRead,
    id: 'listBoundOrganizations',
    method: 'GET',
    path: '/api/v1/organizations',
    summary: 'The organization the credential is bound to (exactly one item; unbound credentials are refused)',
    tenant: { param: 'binding', permission: 'read' },
    collection: 'organizations',
    item: z.object({ id: z.string(), name: z.string(), slug: z.string(), role: z.string(), role_name: z.string(), created_at: z.string() }),
    errorStatuses: [403, 503],
    handler: ({ actor, tenant, page }) => boundOrganizations(tenantOf(tenant), actorOfKind(actor, 'bearer'), page),
  }),
  defineOperation({
    ...bearerRead,
    id: 'getBoundOrganization',
    method: 'GET',
    path: '/api/v1/organizations/{id}',
    summary: "Read the bound organization, with the credential owner's membership and effective permissions",
    tenant: inOrganization('read'),
    params: organizationParams,
    successStatus: 200,
    errorStatuses: [403, 404],
    response: z.object({
      id: z.string(),
      name: z.string(),
      slug: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
      membership: z.object({ id: z.string(), role: z.string(), permissions: z.array(z.enum(PERMISSIONS)) }),
    }),
    handler: ({ tenant }) => readOrganization(tenantOf(tenant)),
  }),
  defineCollection({
    ...bearerRead,
    id: 'listBoundOrganizationDomains',
    method: 'GET',
    path: '/api/v1/organizations/{id}/domains',
    summary: "The bound organization's verified domains (none until domain verification exists)",
    tenant: inOrganization('read'),
    params: organizationParams,
    collection: 'domains',
    item: z.object({ id: z.string(), domain: z.string(), status: z.string(), verified_at: z.string().nullable(), created_at: z.string() }),
    errorStatuses: [403],
    handler: ({ actor, tenant }) => organizationDomains(tenantOf(tenant), actorOfKind(actor, 'bearer')),
  }),
];
