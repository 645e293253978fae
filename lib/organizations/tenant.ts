/**
 * Tenant resolution for the pipeline's authorize step: the caller's active membership, effective
 * permissions and the organization's policies, in one read. Null for a non-member and for an unknown
 * organization alike (the edge answers both with the same 404).
 */
import { BUILT_IN_ROLE_PERMISSIONS, isBuiltInRole, isPermission, type Permission } from '@/lib/contract/permissions';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb } from '@/lib/db';
import { tenantPolicies } from './policy-catalogue';
import { findTenantMembership, type TenantMembershipRow } from './tenant.repo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Role (built-in or custom) plus live delegated grants; every active member reads. */
export function effectivePermissions(row: Pick<TenantMembershipRow, 'role' | 'customPermissions' | 'grants'>): Set<Permission> {
  const fromRole = isBuiltInRole(row.role) ? BUILT_IN_ROLE_PERMISSIONS[row.role] : (row.customPermissions ?? []);
  const held = new Set<Permission>(['read']);
  for (const permission of [...fromRole, ...row.grants.flat()]) if (isPermission(permission)) held.add(permission);
  return held;
}

export async function resolveTenant(organizationId: string, userId: string, now: Date): Promise<TenantActor | null> {
  if (!UUID.test(organizationId)) return null;
  const row = await findTenantMembership(await getDb(), organizationId, userId, now);
  if (!row) return null;
  return {
    organizationId,
    membershipId: row.membershipId,
    userId,
    role: row.role,
    customRoleId: row.customRoleId,
    permissions: effectivePermissions(row),
    policies: tenantPolicies(row.policies),
  };
}
