/**
 * Organizations with everyone a tenant test needs (owner, admin, member, a delegate whose grant has
 * expired), and how to make, inside one organization, the resource each nested path id names: shared
 * by the generated tenant contract tests (isolation, audit).
 */
import { randomUUID } from 'node:crypto';
import type { AnyOperation } from '@/lib/contract/operation';
import { DELEGABLE_PERMISSIONS } from '@/lib/contract/permissions';
import { getDb } from '@/lib/db';
import { delegatedAdminGrants, organizationDomains } from '@/lib/db/schema';
import { eq } from 'drizzle-orm';
import { signUpWithPassword, type Mailbox } from './accounts';
import { asBrowser, createOrganization, joinAs, PASSWORD, person, type Person } from './organizations';

/** The path parameters of an operation besides the organization's own `id`. */
export const nestedPathParams = (op: AnyOperation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((name) => name !== 'id');

/** An organization and its owner: all a fixture needs to make a resource in it. */
export interface Tenant {
  id: string;
  /** Where the organization's people get their mail (fresh members sign up through it). */
  mailbox: Mailbox;
  owner: Person;
}

export interface World extends Tenant {
  /** The membership id of `member`. */
  memberMembershipId: string;
  admin: Person;
  member: Person;
  /** A member whose grant of every delegable permission has expired. */
  delegate: Person;
}

export type Fixture = (world: Tenant, resolved: Record<string, string>) => Promise<string>;

async function created(response: Response, what: string): Promise<string> {
  if (response.status !== 201) throw new Error(`fixture ${what}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

let accounts = 0;
/** A fresh member (not signed in: fixtures that a positive control may remove must not be shared). */
export async function freshMember(world: Tenant): Promise<string> {
  const userId = await signUpWithPassword(world.mailbox, `tenant-fixture-${(accounts += 1)}-${randomUUID().slice(0, 6)}@example.test`, PASSWORD);
  return joinAs(world.id, userId, 'member');
}

const post = (world: Tenant, path: string, body: unknown, params: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  asBrowser(world.owner.browser, 'POST', path, { params: { id: world.id, ...params }, body, headers });

/** An application of a developer outside the organization (not assigned to it yet). */
export async function developerApplication(world: Tenant): Promise<{ id: string; client_id: string }> {
  const developer = await person(world.mailbox, 'developer');
  const response = await asBrowser(developer.browser, 'POST', '/api/developer/applications', {
    body: { name: 'Assigned app', client_type: 'public', redirect_uris: ['https://app.example/cb'], scopes: ['openid'] },
  });
  if (response.status !== 201) throw new Error(`fixture developer application: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; client_id: string };
}

/** A pending domain claim of the organization (registered through the API). */
export async function domainClaim(world: Tenant): Promise<{ id: string; domain: string; verification: { name: string; value: string } }> {
  const response = await post(world, '/api/organizations/{id}/domains', { domain: `fixture-${randomUUID().slice(0, 8)}.test` });
  if (response.status !== 201) throw new Error(`fixture domain: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; domain: string; verification: { name: string; value: string } };
}

/**
 * A verified domain of the organization. The proof itself (DNS) is the domain tests' business
 * (lib/federation/domains); fixtures mark the claim verified as DNS would have.
 */
export async function verifiedDomainOf(world: Tenant): Promise<string> {
  const claim = await domainClaim(world);
  await (await getDb()).update(organizationDomains).set({ status: 'verified', verifiedAt: new Date() }).where(eq(organizationDomains.id, claim.id));
  return claim.domain;
}

/** A connection (registered, not active: that would need a live provider) serving a verified domain. */
export async function federationConnection(world: Tenant): Promise<string> {
  const connectionId = `fixture-${randomUUID().slice(0, 8)}`;
  const body = {
    connection_id: connectionId,
    protocol: 'oidc',
    display_name: 'Fixture IdP',
    issuer: 'https://idp.example.test',
    client_id: 'fixture-client',
    client_secret: 'fixture-secret',
    domains: [await verifiedDomainOf(world)],
  };
  await created(await post(world, '/api/organizations/{id}/federation/connections', body), 'federation connection');
  return connectionId;
}

/** How to make, inside one organization, the resource each kind of nested path id names. */
export const FIXTURES: Record<string, Fixture> = {
  member_id: (world) => freshMember(world),
  invitation_id: async (world) =>
    created(
      await post(world, '/api/organizations/{id}/invitations', { email: `invitee-${randomUUID().slice(0, 8)}@example.test`, role: 'member' }),
      'invitation',
    ),
  group_id: async (world) => created(await post(world, '/api/organizations/{id}/groups', { name: `Group ${randomUUID().slice(0, 8)}` }), 'group'),
  // In a group path: a member of that group.
  membership_id: async (world, resolved) => {
    const membershipId = await freshMember(world);
    if (resolved.group_id)
      await created(
        await post(world, '/api/organizations/{id}/groups/{group_id}/members', { membership_id: membershipId }, { group_id: resolved.group_id }),
        'group member',
      );
    return membershipId;
  },
  role_id: async (world) =>
    created(await post(world, '/api/organizations/{id}/roles', { name: `Role ${randomUUID().slice(0, 8)}`, permissions: ['groups.manage'] }), 'role'),
  delegation_id: async (world) =>
    created(
      await post(
        world,
        '/api/organizations/{id}/delegated-admins',
        { membership_id: await freshMember(world), permissions: ['groups.manage'] },
        {},
        { 'idempotency-key': randomUUID() },
      ),
      'delegation',
    ),
  // An application (of a developer outside the organization) assigned to the organization.
  application_id: async (world) => {
    const app = await developerApplication(world);
    const assigned = await post(world, '/api/organizations/{id}/applications', { client_id: app.client_id });
    if (assigned.status !== 201) throw new Error(`fixture application: ${assigned.status} ${await assigned.text()}`);
    return app.id;
  },
  approval_id: async (world) =>
    created(await post(world, '/api/organizations/{id}/approvals', { action: 'policies.delete', target: 'session.binding' }), 'approval'),
  domain_id: async (world) => (await domainClaim(world)).id,
  // Chosen by the admin and unique across the service: another organization's is still an id to refuse.
  connection_id: (world) => federationConnection(world),
  token_id: async (world) => created(await post(world, '/api/organizations/{id}/scim/tokens', { name: `Directory ${randomUUID().slice(0, 8)}` }), 'SCIM token'),
};

/** Path parameters that are names, not ids: they are the same in every organization (no IDOR to test). */
export const NAMES: Record<string, Fixture> = {
  policy_key: async (world) => {
    const response = await post(world, '/api/organizations/{id}/policies', { policy_key: 'session.idle_timeout_seconds', value: 3600 });
    if (response.status >= 300) throw new Error(`fixture policy: ${response.status} ${await response.text()}`);
    return 'session.idle_timeout_seconds';
  },
};

/**
 * Valid bodies for operations with nested path ids, so that a nested id of another organization is
 * what gets refused (not the body): the answer must be 404, never a validation error that would let
 * the handler's lookup go untested.
 */
export const VALID_BODIES: Record<string, (world: World) => unknown> = {
  updateOrganizationMember: () => ({ status: 'active' }),
  renameOrganizationGroup: () => ({ name: `Renamed ${randomUUID().slice(0, 8)}` }),
  addOrganizationGroupMember: (world) => ({ membership_id: world.memberMembershipId }),
  updateOrganizationRole: () => ({ description: 'Changed' }),
  decideOrganizationApproval: () => ({ decision: 'reject' }),
  changeFederationConnection: () => ({ status: 'disabled' }),
};

export async function paramsIn(world: Tenant, op: AnyOperation): Promise<Record<string, string>> {
  const resolved: Record<string, string> = { id: world.id };
  for (const name of nestedPathParams(op)) resolved[name] = await (FIXTURES[name] ?? NAMES[name])!(world, resolved);
  return resolved;
}

export async function world(mailbox: Mailbox, name: string): Promise<World> {
  const owner = await person(mailbox, `${name}-owner`);
  const id = await createOrganization(owner, `Tenant ${name}`);
  const [admin, member, delegate] = [
    await person(mailbox, `${name}-admin`),
    await person(mailbox, `${name}-member`),
    await person(mailbox, `${name}-delegate`),
  ];
  await joinAs(id, admin.userId, 'admin');
  const memberMembershipId = await joinAs(id, member.userId, 'member');
  const delegateMembership = await joinAs(id, delegate.userId, 'member');
  const longAgo = new Date(Date.now() - 86_400_000);
  await (await getDb()).insert(delegatedAdminGrants).values({
    id: randomUUID(),
    organizationId: id,
    membershipId: delegateMembership,
    permissions: [...DELEGABLE_PERMISSIONS],
    expiresAt: longAgo,
    createdBy: owner.userId,
    createdAt: longAgo,
  });
  return { id, mailbox, memberMembershipId, owner, admin, member, delegate };
}
