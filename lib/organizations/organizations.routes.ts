import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { defineCollection, defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { PERMISSIONS } from '@/lib/contract/permissions';
import { tenantOf } from '@/lib/contract/tenant';
import { changeOrganization, createOrganization, listMyOrganizations, readOrganization, SLUG_PATTERN } from './organizations';
import { displayName, inOrganization, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from './terms';

const slug = z.string().regex(SLUG_PATTERN, 'Lowercase letters, digits and inner hyphens, 1-63 characters.');
const organization = z.object({ id: z.string(), name: z.string(), slug: z.string(), created_at: z.string(), updated_at: z.string() });
const myOrganization = z.object({ id: z.string(), name: z.string(), slug: z.string(), role: z.string(), role_name: z.string(), created_at: z.string() });

const listFor = (id: string, path: string, summary: string) =>
  defineCollection({
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
    handler: ({ actor, page }) => listMyOrganizations(actorOfKind(actor, 'session').userId, page),
  });

export const organizationOperations: AnyOperation[] = [
  listFor('listSessionOrganizations', '/api/auth/organizations', "The session's organizations (the organization switcher)"),
  listFor('listOrganizations', '/api/organizations', 'Organizations the session is an active member of'),
  defineOperation({
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
    handler: ({ actor, body, now, requestId }) => createOrganization(actorOfKind(actor, 'session'), body, now, requestId),
  }),
  defineOperation({
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
    handler: ({ tenant }) => readOrganization(tenantOf(tenant)),
  }),
  defineOperation({
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
    handler: ({ actor, tenant, body, now, requestId }) => changeOrganization(tenantOf(tenant), actorOfKind(actor, 'session'), body, now, requestId),
  }),
];
