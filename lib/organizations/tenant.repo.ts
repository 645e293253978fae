import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { memberships, organizationRoles } from '@/lib/db/schema';

export interface TenantMembershipRow {
  membershipId: string;
  role: 'owner' | 'admin' | 'member' | 'custom';
  customRoleId: string | null;
  customPermissions: string[] | null;
  /** Permissions of each live delegated grant of this membership. */
  grants: string[][];
  policies: { key: string; value: unknown }[];
}

const parsedJson = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

/**
 * Everything tenant authorization needs, in one round trip: the caller's active membership of the
 * organization, its custom role's permissions, its live delegated grants and the organization's
 * policies. Built once per database handle (the authorize step runs it on every tenant request).
 */
function tenantMembershipQuery(db: Executor) {
  return db
    .select({
      membershipId: memberships.id,
      role: memberships.role,
      customRoleId: memberships.customRoleId,
      customPermissions: organizationRoles.permissions,
      grants: sql<unknown>`(select coalesce(json_agg(g.permissions), '[]'::json) from delegated_admin_grants g
        where g.membership_id = ${memberships.id} and g.revoked_at is null
        and (g.expires_at is null or g.expires_at > ${sql.placeholder('now')}::timestamptz))`,
      policies: sql<unknown>`(select coalesce(json_agg(json_build_object('key', p.policy_key, 'value', p.value)), '[]'::json)
        from organization_policies p where p.organization_id = ${memberships.organizationId})`,
    })
    .from(memberships)
    .leftJoin(organizationRoles, and(eq(organizationRoles.id, memberships.customRoleId), eq(organizationRoles.organizationId, memberships.organizationId)))
    .where(
      and(
        eq(memberships.organizationId, sql.placeholder('organizationId')),
        eq(memberships.userId, sql.placeholder('userId')),
        eq(memberships.status, 'active'),
      ),
    )
    .prepare('tenant_membership');
}

const preparedFor = new WeakMap<Executor, ReturnType<typeof tenantMembershipQuery>>();

export async function findTenantMembership(db: Executor, organizationId: string, userId: string, now: Date): Promise<TenantMembershipRow | null> {
  let query = preparedFor.get(db);
  if (!query) preparedFor.set(db, (query = tenantMembershipQuery(db)));
  const [row] = await query.execute({ organizationId, userId, now: now.toISOString() });
  if (!row) return null;
  return { ...row, grants: parsedJson<string[][]>(row.grants), policies: parsedJson<{ key: string; value: unknown }[]>(row.policies) };
}
