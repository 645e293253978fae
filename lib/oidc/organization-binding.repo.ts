import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import {
  developerApplications,
  memberships,
  oidcGrantOrganizations,
  oidcModels,
  organizationApplications,
  organizationPolicies,
  organizationRoles,
  organizations,
} from '@/lib/db/schema';

/**
 * The membership truth read where the binding is decided. Read from the shared schema, not through
 * lib/organizations: that context ends these grants (endOrganizationGrants), so importing it here would
 * close an import circle.
 */
export async function isActiveMember(db: Executor, organizationId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId), eq(memberships.status, 'active')));
  return row !== undefined;
}

/** The organization's policies as stored (key and value), for the session checks of a bound authorization. */
export async function organizationPolicyRows(db: Executor, organizationId: string): Promise<{ key: string; value: unknown }[]> {
  return db
    .select({ key: organizationPolicies.policyKey, value: organizationPolicies.value })
    .from(organizationPolicies)
    .where(eq(organizationPolicies.organizationId, organizationId));
}

/** The organization's name, for the consent screen of one of its active members (null otherwise). */
export async function memberOrganizationName(db: Executor, organizationId: string, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: organizations.name })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId), eq(memberships.status, 'active')));
  return row?.name ?? null;
}

/** A person's own active organizations (the consent chooser), by name. */
export async function activeOrganizationsOf(db: Executor, userId: string, limit: number): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active')))
    .orderBy(asc(organizations.name), asc(organizations.id))
    .limit(limit);
}

export interface GrantBindingRow {
  grantId: string;
  organizationId: string;
  userId: string;
  createdAt: Date;
  signInMethods: string[] | null;
  authenticatedAt: Date | null;
}

/** Records the binding; a later approval of the same grant records its own sign-in. */
export async function bindGrant(db: Executor, row: GrantBindingRow): Promise<void> {
  await db
    .insert(oidcGrantOrganizations)
    .values(row)
    .onConflictDoUpdate({
      target: oidcGrantOrganizations.grantId,
      set: { organizationId: row.organizationId, userId: row.userId, signInMethods: row.signInMethods, authenticatedAt: row.authenticatedAt },
    });
}

export async function grantBinding(db: Executor, grantId: string): Promise<Omit<GrantBindingRow, 'grantId' | 'createdAt'> | null> {
  const [row] = await db
    .select({
      organizationId: oidcGrantOrganizations.organizationId,
      userId: oidcGrantOrganizations.userId,
      signInMethods: oidcGrantOrganizations.signInMethods,
      authenticatedAt: oidcGrantOrganizations.authenticatedAt,
    })
    .from(oidcGrantOrganizations)
    .where(eq(oidcGrantOrganizations.grantId, grantId));
  return row ?? null;
}

/** Grants of one person bound to one organization. */
export async function grantsBoundTo(db: Executor, organizationId: string, userId: string): Promise<string[]> {
  const rows = await db
    .select({ grantId: oidcGrantOrganizations.grantId })
    .from(oidcGrantOrganizations)
    .where(and(eq(oidcGrantOrganizations.organizationId, organizationId), eq(oidcGrantOrganizations.userId, userId)));
  return rows.map((row) => row.grantId);
}

/** Whether the organization has actively assigned the (enabled) application with this client id. */
export async function isAssignedApplication(db: Executor, organizationId: string, clientId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: developerApplications.id })
    .from(organizationApplications)
    .innerJoin(developerApplications, eq(developerApplications.id, organizationApplications.applicationId))
    .where(
      and(
        eq(organizationApplications.organizationId, organizationId),
        eq(organizationApplications.status, 'active'),
        eq(developerApplications.clientId, clientId),
        eq(developerApplications.status, 'enabled'),
      ),
    );
  return row !== undefined;
}

/** Grants of one client bound to one organization (whoever's they are). */
export async function clientGrantsBoundTo(db: Executor, organizationId: string, clientId: string): Promise<string[]> {
  const rows = await db
    .select({ grantId: oidcGrantOrganizations.grantId })
    .from(oidcGrantOrganizations)
    .innerJoin(oidcModels, and(eq(oidcModels.model, oidcGrantOrganizations.model), eq(oidcModels.id, oidcGrantOrganizations.grantId)))
    .where(and(eq(oidcGrantOrganizations.organizationId, organizationId), sql`${oidcModels.payload}->>'clientId' = ${clientId}`));
  return rows.map((row) => row.grantId);
}

/**
 * The API permissions an active member holds in the organization through their custom role (built-in
 * roles carry none): what an organization-bound token for a developer's API may carry.
 */
export async function memberApiPermissions(db: Executor, organizationId: string, userId: string): Promise<{ resource: string; permission: string }[]> {
  const [row] = await db
    .select({ apiPermissions: organizationRoles.apiPermissions })
    .from(memberships)
    .innerJoin(organizationRoles, eq(organizationRoles.id, memberships.customRoleId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId), eq(memberships.status, 'active')));
  return row?.apiPermissions ?? [];
}
