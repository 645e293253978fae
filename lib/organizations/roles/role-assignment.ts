/**
 * Which role a member (or an invitation) may be given, and by whom: a built-in role or one of the
 * organization's custom roles, whose permissions the assigner holds all of (nobody hands out more
 * than they have); only an owner makes owners.
 */
import { serviceError } from '@/lib/contract/errors';
import { isUuid } from '@/lib/contract/ids';
import { BUILT_IN_ROLE_PERMISSIONS, isBuiltInRole, isPermission, type Permission } from '@/lib/contract/permissions';
import type { TenantActor } from '@/lib/contract/tenant';
import type { Executor } from '@/lib/db';
import { findCustomRole } from './roles.repo';

export interface RoleAssignment {
  role: 'owner' | 'admin' | 'member' | 'custom';
  customRoleId: string | null;
  customRoleName: string | null;
  permissions: Permission[];
}

const roleError = (message: string) => serviceError('invalid_request', message, { extras: { errors: [{ path: 'role', message }] } });

/** `role` as the API carries it: a built-in role's name or a custom role's id. */
export async function roleAssignment(db: Executor, tenant: TenantActor, role: string): Promise<RoleAssignment> {
  let assignment: RoleAssignment;
  if (isBuiltInRole(role)) {
    assignment = { role, customRoleId: null, customRoleName: null, permissions: [...BUILT_IN_ROLE_PERMISSIONS[role]] };
  } else {
    const custom = isUuid(role) ? await findCustomRole(db, tenant.organizationId, role) : null;
    if (!custom) throw roleError('No such role in this organization.');
    assignment = { role: 'custom', customRoleId: custom.id, customRoleName: custom.name, permissions: custom.permissions.filter(isPermission) };
  }
  if (assignment.role === 'owner' && tenant.role !== 'owner') {
    throw serviceError('forbidden', 'Only an owner may make someone an owner.', { extras: { permission: 'owner' } });
  }
  assertRoleHolds(tenant, assignment.permissions);
  return assignment;
}

/**
 * Nobody hands out more than their own role holds (roles they create, change or assign). Delegated
 * grants do not count: a delegate lent roles.manage and members.manage until Friday must not be able to
 * give themselves a lasting role with both.
 */
export function assertRoleHolds(tenant: TenantActor, permissions: readonly Permission[]): void {
  const beyond = permissions.filter((permission) => !tenant.rolePermissions.has(permission));
  if (beyond.length > 0) {
    throw serviceError('forbidden', `A role may only hold permissions your own role holds; yours does not hold: ${beyond.join(', ')}.`, {
      extras: { permission: beyond[0] },
    });
  }
}

/**
 * Nobody takes away more than they could hand out: someone who is not an owner changes, suspends or
 * removes only members (and changes only custom roles) whose permissions stay within their own role
 * and a plain member's (a custom role with members.manage cannot suspend or demote an admin; one with
 * roles.manage cannot strip a role that holds more). Owners are guarded by the owner rules.
 */
export function assertWithinReach(tenant: TenantActor, held: readonly string[], what: 'member' | 'role'): void {
  if (tenant.role === 'owner') return;
  // What a plain member holds is everyone's floor: it never puts anything out of reach.
  const floor: readonly string[] = BUILT_IN_ROLE_PERMISSIONS.member;
  const beyond = held.filter(isPermission).filter((permission) => !tenant.rolePermissions.has(permission) && !floor.includes(permission));
  if (beyond.length > 0) {
    throw serviceError(
      'forbidden',
      `This ${what === 'member' ? "member's role" : 'role'} holds permissions yours does not (${beyond.join(', ')}); only someone holding them may change it.`,
      {
        extras: { permission: beyond[0] },
      },
    );
  }
}

/** assertWithinReach for a member, by their current role (owners are left to the owner rules). */
export async function assertMemberWithinReach(
  db: Executor,
  tenant: TenantActor,
  target: { role: RoleAssignment['role']; customRoleId: string | null },
): Promise<void> {
  if (tenant.role === 'owner' || target.role === 'owner') return;
  if (target.role !== 'custom') return assertWithinReach(tenant, BUILT_IN_ROLE_PERMISSIONS[target.role], 'member');
  const custom = target.customRoleId ? await findCustomRole(db, tenant.organizationId, target.customRoleId) : null;
  assertWithinReach(tenant, custom?.permissions ?? [], 'member');
}
