import { z } from 'zod';
import { PERMISSIONS } from '@/lib/contract/permissions';
import { displayName, inOrganization, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const slug = z.string().regex(SLUG_PATTERN, 'Lowercase letters, digits and inner hyphens, 1-63 characters.');
const organization = z.object({ id: z.string(), name: z.string(), slug: z.string(), created_at: z.string(), updated_at: z.string() });
const myOrganization = z.object({ id: z.string(), name: z.string(), slug: z.string(), role: z.string(), role_name: z.string(), created_at: z.string() });

const listFor = (id: string, path: string, summary: string) =>
  collectionContract({
    id,
    method: 'GET',
    path,
    tag: TAG,
    summary,
    auth: SESSION,
    origin: 'if-present',
    idempotency: 'none',
    collection: 'organizations',
    item: myOrganization,
  });

export const listSessionOrganizations = listFor(
  'listSessionOrganizations',
  '/api/auth/organizations',
  "The session's organizations (the organization switcher)",
);
export const listOrganizations = listFor('listOrganizations', '/api/organizations', 'Organizations the session is an active member of');

export const createOrganization = resourceContract({
  id: 'createOrganization',
  method: 'POST',
  path: '/api/organizations',
  tag: TAG,
  summary: 'Create an organization; the creator is its owner',
  auth: ORGANIZATION_STEP_UP,
  origin: 'required',
  idempotency: 'optional',
  body: z.strictObject({ name: displayName, slug: slug.optional() }),
  successStatus: 201,
  errorStatuses: [409],
  emits: ['identity.organization.created'],
  response: organization,
});

export const getOrganization = resourceContract({
  id: 'getOrganization',
  method: 'GET',
  path: '/api/organizations/{id}',
  tag: TAG,
  summary: "Read an organization, with the caller's membership and effective permissions",
  auth: SESSION,
  tenant: inOrganization('read'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  successStatus: 200,
  errorStatuses: [404],
  response: organization.extend({ membership: z.object({ id: z.string(), role: z.string(), permissions: z.array(z.enum(PERMISSIONS)) }) }),
});

export const updateOrganization = resourceContract({
  id: 'updateOrganization',
  method: 'PATCH',
  path: '/api/organizations/{id}',
  tag: TAG,
  summary: "Update the organization's name or slug",
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('settings.manage'),
  origin: 'required',
  idempotency: 'optional',
  params: organizationParams,
  body: z.strictObject({ name: displayName.optional(), slug: slug.optional() }),
  successStatus: 200,
  errorStatuses: [404, 409],
  response: organization,
});
