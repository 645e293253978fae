import { z } from 'zod';
import { PERMISSIONS } from '@/lib/contract/permissions';
import { oneLineText } from '@/lib/contract/text';
import { displayName, inOrganization, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';
import { resourceContract } from '@/lib/contract/wire';

const role = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  builtin: z.boolean(),
  permissions: z.array(z.enum(PERMISSIONS)),
  /** Permissions of developers' APIs this role carries into organization-bound tokens for them (built-in roles carry none). */
  api_permissions: z.array(z.object({ resource: z.string(), permission: z.string() })),
  created_at: z.string(),
});
const description = oneLineText(500, { allowEmpty: true });
const permissions = z
  .array(z.enum(PERMISSIONS))
  .min(1, 'A role holds at least one permission.')
  .max(PERMISSIONS.length * 2);
const apiPermissions = z
  .array(z.strictObject({ resource: z.string().min(1).max(256), permission: z.string().min(1).max(80) }))
  .max(100)
  .refine((list) => new Set(list.map((p) => `${p.resource} ${p.permission}`)).size === list.length, 'Each API permission may appear once.');
/** A custom role's id; a built-in role's name (its id in the list) gets a clear 409 from the service. */
const roleParams = organizationParams.extend({ role_id: z.string().min(1).max(100) });
const mutation = { tag: TAG, auth: ORGANIZATION_STEP_UP, tenant: inOrganization('roles.manage'), origin: 'required', idempotency: 'optional' } as const;

export const listOrganizationRoles = resourceContract({
  id: 'listOrganizationRoles',
  method: 'GET',
  path: '/api/organizations/{id}/roles',
  tag: TAG,
  summary: 'Built-in roles (id = their name) then the custom roles, with their permissions; always one page (custom roles are capped at 50)',
  auth: SESSION,
  tenant: inOrganization('read'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({ roles: z.array(role), has_more: z.literal(false), next_cursor: z.null() }),
});

export const createOrganizationRole = resourceContract({
  ...mutation,
  id: 'createOrganizationRole',
  method: 'POST',
  path: '/api/organizations/{id}/roles',
  summary: 'Create a custom role from permissions the caller holds',
  params: organizationParams,
  body: z.strictObject({ name: displayName, description: description.optional(), permissions, api_permissions: apiPermissions.optional() }),
  successStatus: 201,
  errorStatuses: [404, 409],
  emits: ['identity.organization.role.created'],
  response: role,
});

export const updateOrganizationRole = resourceContract({
  ...mutation,
  id: 'updateOrganizationRole',
  method: 'PATCH',
  path: '/api/organizations/{id}/roles/{role_id}',
  summary:
    "Change a custom role's name, description, permissions (only permissions the caller holds) or API permissions (each an enabled developer API's, carried into organization-bound tokens for that API)",
  params: roleParams,
  body: z.strictObject({
    name: displayName.optional(),
    description: description.nullable().optional(),
    permissions: permissions.optional(),
    api_permissions: apiPermissions.optional(),
  }),
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.organization.role.updated'],
  response: role,
});

export const deleteOrganizationRole = resourceContract({
  ...mutation,
  id: 'deleteOrganizationRole',
  method: 'DELETE',
  path: '/api/organizations/{id}/roles/{role_id}',
  summary: 'Delete a custom role no membership (other than revoked) or pending invitation uses (409 otherwise)',
  params: roleParams,
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.organization.role.deleted'],
  response: z.object({ deleted: z.literal(true) }),
});
