/**
 * The organization a bad request is sent into: owned by the probe's signed-in person, with an
 * organization-bound bearer token holding every scope, and, per operation, real ids of the resources
 * its path names (member, invitation, group, role, delegation, application, approval, policy key),
 * made by the same fixtures as the tenant contract tests. Without it every organization operation
 * would stop at the tenant check (404) and its schemas and handler would never meet bad input.
 */
import { eq } from 'drizzle-orm';
import { issueScimToken } from '../helpers/scim';
import type { AnyOperation } from '@/lib/contract/operation';
import { getDb } from '@/lib/db';
import { organizationPolicies } from '@/lib/db/schema';
import { SCOPE_TABLE } from '@/lib/oidc';
import type { Mailbox } from '../helpers/accounts';
import { paramsIn, type Tenant } from '../helpers/organization-fixtures';
import { pathParamNames } from './drafts';
import { createOrganization, joinAs, organizationBearer, type Person } from '../helpers/organizations';

export interface ProbeOrganization {
  tenant: Tenant;
  /** An access token bound to the organization, holding every scope, of its first owner. */
  bearer: string;
  /** A SCIM token of the organization (issued through the API by its owner). */
  scimToken: string;
  /** Real path parameters per operation id, made on first use. */
  params: Map<string, Record<string, string>>;
}

export async function createProbeOrganization(mailbox: Mailbox, owner: Person): Promise<ProbeOrganization> {
  const id = await createOrganization(owner, 'Probe organization');
  const bearer = await organizationBearer(owner.userId, id, SCOPE_TABLE.map((s) => s.scope).join(' '));
  return { tenant: { id, mailbox, owner }, bearer, scimToken: (await issueScimToken(owner, id, 'Probe directory')).token, params: new Map() };
}

/** The path parameters of a tenant operation, naming this organization and resources of it. */
export async function organizationParams(organization: ProbeOrganization, op: AnyOperation): Promise<Record<string, string>> {
  let params = organization.params.get(op.id);
  if (!params) {
    const made = await paramsIn(organization.tenant, op);
    // Only the names in the path, as the router passes them (a binding-scoped path has no {id}).
    params = Object.fromEntries(pathParamNames(op).map((name) => [name, made[name]!]));
    organization.params.set(op.id, params);
  }
  return params;
}

/**
 * Makes every tenant operation's resources before the walk: valid-looking requests the walk sends
 * spend the organization's own budgets (invitations per organization), which a fixture made later
 * would then find empty.
 */
export async function prepareOrganizationParams(organization: ProbeOrganization, operations: readonly AnyOperation[]): Promise<void> {
  for (const op of operations.filter((o) => o.tenant)) await organizationParams(organization, op);
}

/** A person who replaced the signed-in one (see keepSignedIn) owns the organization too. */
export async function addOwner(organization: ProbeOrganization, owner: Person): Promise<void> {
  await joinAs(organization.tenant.id, owner.userId, 'owner');
  organization.tenant.owner = owner;
}

/**
 * A generated request that happens to be valid may set a policy that shuts the owner's password
 * session out of the organization (allowed sign-in methods, a short maximum age, device binding,
 * a step-up window of one second): every policy goes back to its default before each request, so
 * "with a session" keeps meaning "inside the organization". Test data, not a request.
 */
export async function restoreDefaultPolicies(organization: ProbeOrganization): Promise<void> {
  await (await getDb()).delete(organizationPolicies).where(eq(organizationPolicies.organizationId, organization.tenant.id));
}
