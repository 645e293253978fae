/**
 * Bearer organization reads (spec, "Bearer organization reads"): server-to-server, with an
 * organization-bound OAuth token (or API key). The pipeline requires the binding, refuses any other
 * organization (403) and resolves the owner's active membership before a handler runs.
 */
import { z } from 'zod';
import { PERMISSIONS } from '@/lib/contract/permissions';
import { BEARER_TAG, inOrganization, ORGANIZATION_BEARER, organizationParams } from '../terms';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

const READ = ORGANIZATION_BEARER('identity.organization.read');
const bearerRead = { tag: BEARER_TAG, auth: READ, origin: 'none', idempotency: 'none' } as const;

export const listBoundOrganizations = collectionContract({
  ...bearerRead,
  id: 'listBoundOrganizations',
  method: 'GET',
  path: '/api/v1/organizations',
  summary: 'The organization the credential is bound to (exactly one item; unbound credentials are refused)',
  tenant: { param: 'binding', permission: 'read' },
  collection: 'organizations',
  item: z.object({ id: z.string(), name: z.string(), slug: z.string(), role: z.string(), role_name: z.string(), created_at: z.string() }),
  errorStatuses: [403, 503],
});

export const getBoundOrganization = resourceContract({
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
});
