/**
 * The organization's roles: the built-in ones (in code) and its custom roles (named permission sets).
 * Nobody makes a role holding a permission they do not hold themselves; a role in use (by a membership
 * that is not revoked, or a pending invitation) is not deleted.
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '@/lib/contract/actor';
import { invalidField, serviceError } from '@/lib/contract/errors';
import { isUuid } from '@/lib/contract/ids';
import { BUILT_IN_ROLE_PERMISSIONS, BUILT_IN_ROLES, PERMISSIONS, isBuiltInRole, isPermission, type Permission } from '@/lib/contract/permissions';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { apiPermissionExists } from '@/lib/oidc';
import { recordChange, type OrganizationChange } from '../change-record';
import { assertRoleHolds, assertWithinReach } from './role-assignment';
import { findOrganization, lockOrganization } from '../lifecycle/organizations.repo';
import {
  countCustomRoles,
  customRoleUse,
  deleteCustomRole,
  insertCustomRole,
  listCustomRoles,
  lockCustomRole,
  roleNameTaken,
  updateCustomRole,
  type CustomRoleRow,
} from './roles.repo';

/** Custom roles per organization: few enough that the roles list is always one page (built-ins included). */
export const MAX_CUSTOM_ROLES = 50;

const BUILT_IN_DESCRIPTIONS: Record<(typeof BUILT_IN_ROLES)[number], string> = {
  owner: 'Every permission, plus the owner-only acts: making owners and creating delegated-admin grants',
  admin: 'Every permission except the owner-only acts',
  member: 'Sees the organization and its audit log',
};

export interface RoleView {
  id: string;
  name: string;
  description: string | null;
  builtin: boolean;
  permissions: Permission[];
  api_permissions: ApiPermissionRef[];
  created_at: string;
}

export interface ApiPermissionRef {
  resource: string;
  permission: string;
}

/** Each API permission must name an enabled developer API and one of its permissions. */
async function assertApiPermissions(refs: readonly ApiPermissionRef[]): Promise<void> {
  for (const [index, ref] of refs.entries()) {
    if (!(await apiPermissionExists(ref.resource, ref.permission)))
      throw invalidField(`body.api_permissions.${index}`, `No enabled API ${ref.resource} has a permission named ${ref.permission}.`);
  }
}

/** Permissions in catalogue order, each once. */
const ordered = (permissions: readonly string[]): Permission[] => PERMISSIONS.filter((p) => permissions.includes(p));

export function customRoleView(row: CustomRoleRow): RoleView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    builtin: false,
    permissions: ordered(row.permissions.filter(isPermission)),
    api_permissions: row.apiPermissions,
    created_at: row.createdAt.toISOString(),
  };
}

/** Built-in roles first (their id is their name, their date the organization's), then the custom roles, newest first. */
export async function listRoles(tenant: TenantActor) {
  const db = await getDb();
  const organization = await findOrganization(db, tenant.organizationId);
  if (!organization) throw serviceError('not_found', 'No such organization.');
  const builtIn = BUILT_IN_ROLES.map((role): RoleView => ({
    id: role,
    name: role,
    description: BUILT_IN_DESCRIPTIONS[role],
    builtin: true,
    permissions: [...BUILT_IN_ROLE_PERMISSIONS[role]],
    api_permissions: [],
    created_at: organization.createdAt.toISOString(),
  }));
  const custom = (await listCustomRoles(db, tenant.organizationId)).map(customRoleView);
  return { roles: [...builtIn, ...custom], has_more: false as const, next_cursor: null };
}

const ROLE_EVENTS = {
  'role.created': 'identity.organization.role.created',
  'role.updated': 'identity.organization.role.updated',
  'role.deleted': 'identity.organization.role.deleted',
} as const;
type RoleAction = keyof typeof ROLE_EVENTS;

function roleChange(action: RoleAction, roleId: string, data?: OrganizationChange<RoleAction>['data']): OrganizationChange<RoleAction> {
  return { action, subject: { type: 'role', id: roleId }, data, event: { type: ROLE_EVENTS[action], payload: { role_id: roleId } } };
}

const nameError = (message: string) => serviceError('conflict', message, { extras: { errors: [{ path: 'name', message }] } });

async function assertNameFree(tx: Executor, tenant: TenantActor, name: string, exceptId?: string): Promise<void> {
  if (isBuiltInRole(name.toLowerCase())) throw nameError('This is the name of a built-in role.');
  if (await roleNameTaken(tx, tenant.organizationId, name, exceptId)) throw nameError('A role with this name exists.');
}

export async function createRole(
  tenant: TenantActor,
  actor: Actor,
  input: { name: string; description?: string; permissions: Permission[]; api_permissions?: ApiPermissionRef[] },
  now: Date,
  requestId: string,
) {
  const permissions = ordered(input.permissions);
  assertRoleHolds(tenant, permissions);
  await assertApiPermissions(input.api_permissions ?? []);
  const row = await inTransaction(async (tx) => {
    // Names and the cap are checked under the organization's row lock, so concurrent creations cannot race them.
    await lockOrganization(tx, tenant.organizationId);
    await assertNameFree(tx, tenant, input.name);
    if ((await countCustomRoles(tx, tenant.organizationId)) >= MAX_CUSTOM_ROLES) {
      throw serviceError('conflict', `An organization has at most ${MAX_CUSTOM_ROLES} custom roles; delete an unused one first.`);
    }
    const role: CustomRoleRow = {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      name: input.name,
      description: input.description ?? null,
      permissions,
      apiPermissions: input.api_permissions ?? [],
      createdAt: now,
      updatedAt: now,
    };
    await insertCustomRole(tx, role);
    await recordChange(tx, tenant, actor, roleChange('role.created', role.id, { permissions: permissions.join(',') }), now, requestId);
    return role;
  });
  return customRoleView(row);
}

export async function changeRole(
  tenant: TenantActor,
  actor: Actor,
  roleId: string,
  changes: { name?: string; description?: string | null; permissions?: Permission[]; api_permissions?: ApiPermissionRef[] },
  now: Date,
  requestId: string,
) {
  const fields = Object.keys(changes).sort();
  if (fields.length === 0) throw serviceError('invalid_request', 'Send at least one of name, description, permissions, api_permissions.');
  const permissions = changes.permissions && ordered(changes.permissions);
  if (permissions) assertRoleHolds(tenant, permissions);
  if (changes.api_permissions) await assertApiPermissions(changes.api_permissions);
  const row = await inTransaction(async (tx) => {
    await lockOrganization(tx, tenant.organizationId);
    assertWithinReach(tenant, (await lockedRole(tx, tenant, roleId)).permissions, 'role');
    if (changes.name !== undefined) await assertNameFree(tx, tenant, changes.name, roleId);
    const { api_permissions: apiPermissions, ...rest } = changes;
    const updated = await updateCustomRole(tx, tenant.organizationId, roleId, { ...rest, permissions, apiPermissions }, now);
    if (!updated) throw serviceError('not_found', 'No such custom role in this organization.');
    await recordChange(
      tx,
      tenant,
      actor,
      roleChange('role.updated', roleId, { fields: fields.join(','), permissions: permissions ? permissions.join(',') : null }),
      now,
      requestId,
    );
    return updated;
  });
  return customRoleView(row);
}

/** The custom role, row-locked; built-in roles live in code and never change. */
async function lockedRole(tx: Executor, tenant: TenantActor, roleId: string): Promise<CustomRoleRow> {
  if (isBuiltInRole(roleId)) throw serviceError('conflict', 'Built-in roles cannot be changed or deleted.');
  const role = isUuid(roleId) ? await lockCustomRole(tx, tenant.organizationId, roleId) : null;
  if (!role) throw serviceError('not_found', 'No such custom role in this organization.');
  return role;
}

/** Only an unused role goes (spec, deletion guards). Its row lock makes concurrent assignments wait (see findCustomRole). */
export async function deleteRole(tenant: TenantActor, actor: Actor, roleId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    await lockedRole(tx, tenant, roleId);
    const use = await customRoleUse(tx, tenant.organizationId, roleId);
    if (use.memberships > 0 || use.invitations > 0) {
      throw serviceError(
        'conflict',
        `This role is in use by ${use.memberships} member(s) and ${use.invitations} pending invitation(s); change or revoke those first.`,
      );
    }
    await deleteCustomRole(tx, tenant.organizationId, roleId);
    await recordChange(tx, tenant, actor, roleChange('role.deleted', roleId), now, requestId);
  });
  return { deleted: true as const };
}
