/**
 * API resources (issue 23; beyond the spec's list, so each operation is an extension): a developer's
 * own APIs, for which the provider issues access tokens. The browser manages them with a session and a
 * recent step-up, like applications; the bearer surface lists and registers them.
 */
import { z } from 'zod';
import { API_TOKEN_TTL } from '@/lib/contract/api-resources';
import { DEVELOPER_BEARER, DEVELOPER_BEARER_TAG, DEVELOPER_STEP_UP, DEVELOPER_TAG } from '@/lib/contract/developer-terms';
import { SCOPE_TABLE } from '@/lib/contract/scope-table';
import { SCOPES } from '@/lib/contract/scopes';
import { displayName, oneLineText } from '@/lib/contract/text';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

export const MAX_API_PERMISSIONS = 100;

const PERMISSION_SCHEMA = z.object({ name: z.string(), description: z.string() });

export const API_RESOURCE_SCHEMA = z.object({
  id: z.string(),
  identifier: z.string(),
  name: z.string(),
  permissions: z.array(PERMISSION_SCHEMA),
  access_token_ttl_seconds: z.number().int(),
  machine_clients: z.boolean(),
  /** The owner's confidential application that is the API's own backend: it may introspect the API's tokens. */
  resource_server_client_id: z.string().nullable(),
  status: z.enum(['enabled', 'disabled']),
  created_at: z.string(),
  updated_at: z.string(),
});

export const MACHINE_ACCESS_SCHEMA = z.object({ client_id: z.string(), permissions: z.array(z.string()) });

const API_RESOURCES = '/api/developer/api-resources';
const ONE = `${API_RESOURCES}/{api_resource_id}`;

/**
 * An RFC 8707 resource indicator, as Logto asks for it: an absolute https URI without a fragment or
 * credentials. Kept exactly as given: it is compared byte for byte with `resource` and `aud`.
 */
export function isResourceIdentifier(value: string): boolean {
  if (!/^https:\/\/[^\s]+$/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hash === '' && !value.includes('#') && url.username === '' && url.password === '' && url.hostname !== '';
  } catch {
    return false;
  }
}
const identifier = z.string().max(256).refine(isResourceIdentifier, 'An identifier is an absolute https URI without a fragment or credentials.');

/**
 * Permission names travel in the space-separated `scope` parameter beside our own scopes: one token
 * of visible characters, and never one of ours (a token could otherwise claim to grant it).
 */
const OWN_SCOPES = new Set<string>([...SCOPES, ...SCOPE_TABLE.map((s) => s.scope)]);
const permissionName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9:._/-]{0,79}$/, 'A permission name is 1-80 letters, digits or : . _ / - (no spaces).')
  .refine((name) => !OWN_SCOPES.has(name), 'This name is one of the service’s own scopes.');
const permissions = z
  .array(z.strictObject({ name: permissionName, description: oneLineText(200) }))
  .max(MAX_API_PERMISSIONS)
  .refine((list) => new Set(list.map((p) => p.name)).size === list.length, 'Each permission name may appear once.');
const ttl = z.number().int().min(API_TOKEN_TTL.min).max(API_TOKEN_TTL.max);

const newApiResource = z.strictObject({
  identifier,
  name: displayName,
  permissions,
  access_token_ttl_seconds: ttl.optional(),
  machine_clients: z.boolean().optional(),
});

// Path ids are checked by the service: a malformed id is as unknown as another owner's (404).
const params = z.object({ api_resource_id: z.string().min(1).max(100) });

/**
 * A registration, in the portal or over the bearer surface: counted per account, whichever credential
 * (session or bearer) the account uses.
 */
const registration = {
  subjectRateLimit: {
    bucket: 'api_resource_register' as const,
    subject: ({ actor }: { actor: { userId: string } }) => `user:${actor.userId}`,
  },
  extension: true,
  body: newApiResource,
  successStatus: 201,
  errorStatuses: [409],
  emits: ['identity.api_resource.created' as const],
  response: API_RESOURCE_SCHEMA,
};

export const listApiResources = collectionContract({
  id: 'listApiResources',
  method: 'GET',
  path: API_RESOURCES,
  tag: DEVELOPER_TAG,
  summary: "The caller's API resources (deleted ones are gone), newest first",
  auth: DEVELOPER_STEP_UP,
  origin: 'if-present',
  idempotency: 'none',
  extension: true,
  collection: 'api_resources',
  item: API_RESOURCE_SCHEMA,
});

export const createApiResource = resourceContract({
  id: 'createApiResource',
  method: 'POST',
  path: API_RESOURCES,
  tag: DEVELOPER_TAG,
  summary:
    'Register an API: its identifier (the RFC 8707 resource indicator; unique, and never reused once taken), a name, permissions with plain-words descriptions, the access-token lifetime and whether machine clients may use it (409 when the identifier is taken)',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  idempotency: 'optional',
  ...registration,
});

export const getApiResource = resourceContract({
  id: 'getApiResource',
  method: 'GET',
  path: ONE,
  tag: DEVELOPER_TAG,
  summary: 'One of the caller’s API resources',
  auth: DEVELOPER_STEP_UP,
  origin: 'if-present',
  idempotency: 'none',
  extension: true,
  params,
  successStatus: 200,
  errorStatuses: [404],
  response: API_RESOURCE_SCHEMA,
});

export const updateApiResource = resourceContract({
  id: 'updateApiResource',
  method: 'PATCH',
  path: ONE,
  tag: DEVELOPER_TAG,
  summary:
    'Change the name, the permissions, the token lifetime, machine use, the resource server (the owner’s confidential application that may introspect its tokens), or disable and enable it (a disabled API gets no new tokens); the identifier never changes. Removed permissions leave every machine grant too',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  idempotency: 'optional',
  extension: true,
  params,
  body: z.strictObject({
    name: displayName.optional(),
    permissions: permissions.optional(),
    access_token_ttl_seconds: ttl.optional(),
    machine_clients: z.boolean().optional(),
    resource_server_client_id: z.string().min(1).max(200).nullable().optional(),
    status: z.enum(['enabled', 'disabled']).optional(),
  }),
  successStatus: 200,
  errorStatuses: [404],
  emits: ['identity.api_resource.updated'],
  response: API_RESOURCE_SCHEMA,
});

export const deleteApiResource = resourceContract({
  id: 'deleteApiResource',
  method: 'DELETE',
  path: ONE,
  tag: DEVELOPER_TAG,
  summary: 'Delete an API: no token is issued for it again, its machine grants go, and its identifier stays taken',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  idempotency: 'optional',
  extension: true,
  params,
  successStatus: 200,
  errorStatuses: [404],
  emits: ['identity.api_resource.deleted'],
  response: z.object({ id: z.string(), status: z.literal('deleted') }),
});

export const listMachineAccess = collectionContract({
  id: 'listMachineAccess',
  method: 'GET',
  path: `${ONE}/machine-access`,
  tag: DEVELOPER_TAG,
  summary: 'Which of the owner’s applications may get which of the API’s permissions without a person (client credentials)',
  auth: DEVELOPER_STEP_UP,
  origin: 'if-present',
  idempotency: 'none',
  extension: true,
  params,
  errorStatuses: [404],
  collection: 'machine_access',
  item: MACHINE_ACCESS_SCHEMA,
});

export const setMachineAccess = resourceContract({
  id: 'setMachineAccess',
  method: 'PUT',
  path: `${ONE}/machine-access`,
  tag: DEVELOPER_TAG,
  summary:
    'Grant one of the owner’s confidential applications these permissions of the API for client credentials; an empty list removes its access. 409 when the API does not take machine clients or is not enabled; 400 for a permission the API does not have or an application that is not the owner’s enabled confidential one',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  idempotency: 'optional',
  extension: true,
  params,
  body: z.strictObject({
    client_id: z.string().min(1).max(200),
    permissions: z.array(z.string().max(80)).max(MAX_API_PERMISSIONS),
  }),
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.api_resource.machine_access.updated'],
  response: MACHINE_ACCESS_SCHEMA,
});

export const listBearerApiResources = collectionContract({
  id: 'listBearerApiResources',
  method: 'GET',
  path: '/api/v1/developer/api-resources',
  tag: DEVELOPER_BEARER_TAG,
  summary: "The credential owner's API resources; the envelope names the credential kind and its scopes",
  auth: DEVELOPER_BEARER('identity.developer.read'),
  origin: 'none',
  idempotency: 'none',
  extension: true,
  collection: 'api_resources',
  item: API_RESOURCE_SCHEMA,
});

export const createBearerApiResource = resourceContract({
  id: 'createBearerApiResource',
  method: 'POST',
  path: '/api/v1/developer/api-resources',
  tag: DEVELOPER_BEARER_TAG,
  summary: 'Register an API with a scoped credential (as in the portal; 409 when the identifier is taken)',
  auth: DEVELOPER_BEARER('identity.applications.manage'),
  origin: 'none',
  idempotency: 'required',
  ...registration,
});
