/**
 * Tenant resolution for the pipeline's authorize step: the caller's active membership, effective
 * permissions and the organization's policies, in one read. Null for a non-member and for an unknown
 * organization alike (the edge answers both with the same 404).
 */
import { isUuid } from '@/lib/contract/ids';
import { BUILT_IN_ROLE_PERMISSIONS, isBuiltInRole, isPermission, type Permission } from '@/lib/contract/permissions';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb } from '@/lib/db';
import { tenantPolicies } from '@/lib/contract/policies';
import { findTenantMembership, type TenantMembershipRow } from './tenant.repo';

/** What the role (built-in or custom) holds; every active member reads. */
export function roleHeldPermissions(row: Pick<TenantMembershipRow, 'role' | 'customPermissions'>): Set<Permission> {
  const fromRole = isBuiltInRole(row.role) ? BUILT_IN_ROLE_PERMISSIONS[row.role] : (row.customPermissions ?? []);
  return new Set<Permission>(['read', ...fromRole.filter(isPermission)]);
}

/** The role's permissions plus those of every live delegated grant. */
export function effectivePermissions(row: Pick<TenantMembershipRow, 'role' | 'customPermissions' | 'grants'>): Set<Permission> {
  return new Set<Permission>([...roleHeldPermissions(row), ...row.grants.flat().filter(isPermission)]);
}

export async function resolveTenant(organizationId: string, userId: string, now: Date): Promise<TenantActor | null> {
  if (!isUuid(organizationId)) return null;
  const row = await findTenantMembership(await getDb(), organizationId, userId, now);
  if (!row) return null;
  return {
    organizationId,
    membershipId: row.membershipId,
    userId,
    role: row.role,
    customRoleId: row.customRoleId,
    permissions: effectivePermissions(row),
    rolePermissions: roleHeldPermissions(row),
    policies: tenantPolicies(row.policies),
  };
}
