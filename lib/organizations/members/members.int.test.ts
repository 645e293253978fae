/**
 * Members through the real pipeline: the list, role and status changes, revocation, the owner rules
 * (only owners touch owners, the last active owner stays, under concurrency too), the approval gate
 * and the bearer reads.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { approvals, delegatedAdminGrants, groupMembers, groups, memberships, organizationPolicies, outboxEvents, users } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { customRoleRow } from '@/tests/helpers/organization-roles';
import { problemOf } from '@/tests/helpers/http';
import { mintAccessToken } from '@/tests/helpers/oauth';
import { asBearer, asBrowser, joinAs, organizationBearer, person, type Person, membershipOf, ownedOrganization } from '@/tests/helpers/organizations';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50' });
const MEMBER = '/api/organizations/{id}/members/{member_id}';

const patchMember = (actor: Person, id: string, memberId: string, body: unknown) =>
  asBrowser(actor.browser, 'PATCH', MEMBER, { params: { id, member_id: memberId }, body });
const removeMember = (actor: Person, id: string, memberId: string, query?: string) =>
  asBrowser(actor.browser, 'DELETE', MEMBER, { params: { id, member_id: memberId }, query });

describe('the members list', () => {
  it('shows active and suspended members by default, each status on request, with address and role', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const cy = await person(mailbox, 'cy');
    const bobMembership = await joinAs(id, bob.userId, 'member');
    const cyMembership = await joinAs(id, cy.userId, 'admin');
    expect((await patchMember(owner, id, bobMembership, { status: 'suspended' })).status).toBe(200);
    expect((await removeMember(owner, id, cyMembership)).status).toBe(200);

    const list = async (query?: string) =>
      (await (await asBrowser(owner.browser, 'GET', '/api/organizations/{id}/members', { params: { id }, query })).json()) as {
        members: { user_id: string; status: string }[];
      };
    const all = await list();
    expect(all.members.map((m) => [m.user_id, m.status]).sort()).toEqual(
      [
        [bob.userId, 'suspended'],
        [owner.userId, 'active'],
      ].sort(),
    );
    const first = all.members.find((m) => m.user_id === owner.userId);
    expect(first).toMatchObject({ email: owner.email, role: 'owner', role_name: 'owner', status: 'active' });
    expect((await list('status=revoked')).members).toMatchObject([{ user_id: cy.userId, status: 'revoked', role: 'admin' }]);
    expect((await list('status=suspended')).members.map((m) => m.user_id)).toEqual([bob.userId]);
    expect((await asBrowser(owner.browser, 'GET', '/api/organizations/{id}/members', { params: { id }, query: 'status=gone' })).status).toBe(400);
  });

  it('pages newest first with a cursor', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    for (let i = 0; i < 2; i += 1) await joinAs(id, (await person(mailbox, 'page')).userId, 'member', new Date(Date.now() + (i + 1) * 1000));
    const first = await (await asBrowser(owner.browser, 'GET', '/api/organizations/{id}/members', { params: { id }, query: 'limit=2' })).json();
    expect(first.members).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const second = await (
      await asBrowser(owner.browser, 'GET', '/api/organizations/{id}/members', { params: { id }, query: `limit=2&cursor=${first.next_cursor}` })
    ).json();
    expect(second).toMatchObject({ members: [{ user_id: owner.userId }], has_more: false, next_cursor: null });
  });
});

describe('changing members', () => {
  it('changes role and status, and a suspended member loses access until re-activated', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const bobMembership = await joinAs(id, bob.userId, 'member');
    const promoted = await patchMember(owner, id, bobMembership, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toMatchObject({
      id: bobMembership,
      user_id: bob.userId,
      email: bob.email,
      role: 'admin',
      role_name: 'admin',
      status: 'active',
    });
    expect((await patchMember(owner, id, bobMembership, { status: 'suspended' })).status).toBe(200);
    expect((await asBrowser(bob.browser, 'GET', '/api/organizations/{id}', { params: { id } })).status).toBe(404);
    expect((await patchMember(owner, id, bobMembership, { status: 'active' })).status).toBe(200);
    expect((await asBrowser(bob.browser, 'GET', '/api/organizations/{id}', { params: { id } })).status).toBe(200);
  });

  it("refuses an empty change, an unknown role, and another organization's membership id", async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const other = await ownedOrganization(mailbox, 'zed');
    const bobMembership = await joinAs(id, (await person(mailbox, 'bob')).userId, 'member');
    expect((await patchMember(owner, id, bobMembership, {})).status).toBe(400);
    const unknown = await patchMember(owner, id, bobMembership, { role: 'emperor' });
    expect(unknown.status).toBe(400);
    expect((await problemOf(unknown)).errors).toEqual([{ path: 'role', message: 'No such role in this organization.' }]);
    const foreign = await patchMember(owner, id, other.ownerMembership, { role: 'member' });
    expect(foreign.status).toBe(404);
    expect((await membershipOf(other.id, other.owner.userId)).role).toBe('owner');
  });

  it('needs members.manage and a recent step-up', async () => {
    const { owner, id, ownerMembership } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    await joinAs(id, bob.userId, 'member');
    const refused = await patchMember(bob, id, ownerMembership, { role: 'member' });
    expect(refused.status).toBe(403);
    expect(await problemOf(refused)).toMatchObject({ code: 'forbidden', permission: 'members.manage' });
    const stale = await asBrowser(owner.browser, 'PATCH', MEMBER, {
      params: { id, member_id: ownerMembership },
      body: { role: 'owner' },
      now: () => new Date(Date.now() + 11 * 60 * 1000),
    });
    expect((await problemOf(stale)).code).toBe('step_up_required');
  });

  it('assigns a custom role only when the assigner holds all its permissions', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const manager = await person(mailbox, 'manager');
    const bob = await person(mailbox, 'bob');
    const managers = await customRoleRow(id, 'Member managers', ['members.manage']);
    const policyAdmins = await customRoleRow(id, 'Policy admins', ['members.manage', 'policies.manage']);
    const managerMembership = await joinAs(id, manager.userId, 'member');
    const bobMembership = await joinAs(id, bob.userId, 'member');
    const made = await patchMember(owner, id, managerMembership, { role: managers });
    expect(await made.json()).toMatchObject({ role: managers, role_name: 'Member managers' });

    const beyond = await patchMember(manager, id, bobMembership, { role: policyAdmins });
    expect(beyond.status).toBe(403);
    expect(await problemOf(beyond)).toMatchObject({ code: 'forbidden', permission: 'policies.manage' });
    expect((await patchMember(manager, id, bobMembership, { role: 'admin' })).status).toBe(403);
    expect((await membershipOf(id, bob.userId)).role).toBe('member');
    // Within their own permissions it works.
    expect((await patchMember(manager, id, bobMembership, { role: managers })).status).toBe(200);
  });
});

describe('owners', () => {
  it('only an owner makes, changes or removes an owner', async () => {
    const { owner, id, ownerMembership } = await ownedOrganization(mailbox);
    const admin = await person(mailbox, 'admin');
    const bob = await person(mailbox, 'bob');
    await joinAs(id, admin.userId, 'admin');
    const bobMembership = await joinAs(id, bob.userId, 'member');
    for (const response of [
      await patchMember(admin, id, ownerMembership, { role: 'member' }),
      await patchMember(admin, id, ownerMembership, { status: 'suspended' }),
      await removeMember(admin, id, ownerMembership),
      await patchMember(admin, id, bobMembership, { role: 'owner' }),
    ]) {
      expect(response.status).toBe(403);
      expect(await problemOf(response)).toMatchObject({ code: 'forbidden', permission: 'owner' });
    }
    expect(await membershipOf(id, owner.userId)).toMatchObject({ role: 'owner', status: 'active' });
    expect((await patchMember(owner, id, bobMembership, { role: 'owner' })).status).toBe(200);
  });

  it('never demotes, suspends or removes the last active owner', async () => {
    const { owner, id, ownerMembership } = await ownedOrganization(mailbox);
    for (const response of [
      await patchMember(owner, id, ownerMembership, { role: 'admin' }),
      await patchMember(owner, id, ownerMembership, { status: 'suspended' }),
      await removeMember(owner, id, ownerMembership),
    ]) {
      expect(response.status).toBe(409);
      expect((await problemOf(response)).code).toBe('conflict');
    }
    expect(await membershipOf(id, owner.userId)).toMatchObject({ role: 'owner', status: 'active' });
    // A suspended second owner does not count: the active one is still the last.
    const bob = await person(mailbox, 'bob');
    const bobMembership = await joinAs(id, bob.userId, 'owner');
    expect((await patchMember(owner, id, bobMembership, { status: 'suspended' })).status).toBe(200);
    expect((await patchMember(owner, id, ownerMembership, { role: 'admin' })).status).toBe(409);
    // With another active owner, stepping down works.
    expect((await patchMember(owner, id, bobMembership, { status: 'active' })).status).toBe(200);
    expect((await patchMember(owner, id, ownerMembership, { role: 'admin' })).status).toBe(200);
  });

  it('keeps an owner when two owners demote each other at the same time', async () => {
    const { owner: ada, id, ownerMembership: adaMembership } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const bobMembership = await joinAs(id, bob.userId, 'owner');
    const answers = await Promise.all([patchMember(ada, id, bobMembership, { role: 'admin' }), patchMember(bob, id, adaMembership, { role: 'admin' })]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect(statuses[1]).toBeGreaterThanOrEqual(403);
    const owners = (await (await getDb()).select().from(memberships).where(eq(memberships.organizationId, id))).filter(
      (m) => m.role === 'owner' && m.status === 'active',
    );
    expect(owners).toHaveLength(1);
  });

  it('keeps an owner when two owners remove each other at the same time', async () => {
    const { owner: ada, id, ownerMembership: adaMembership } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const bobMembership = await joinAs(id, bob.userId, 'owner');
    const answers = await Promise.all([removeMember(ada, id, bobMembership), removeMember(bob, id, adaMembership)]);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const owners = (await (await getDb()).select().from(memberships).where(eq(memberships.organizationId, id))).filter(
      (m) => m.role === 'owner' && m.status === 'active',
    );
    expect(owners).toHaveLength(1);
  });
});

describe('revoking a membership', () => {
  it('revokes (the user stays), ends group memberships and live delegated grants, and announces it', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const bobMembership = await joinAs(id, bob.userId, 'member');
    const db = await getDb();
    const now = new Date();
    const groupId = randomUUID();
    await db.insert(groups).values({ id: groupId, organizationId: id, name: 'Team', createdAt: now, updatedAt: now });
    await db.insert(groupMembers).values({ groupId, membershipId: bobMembership, organizationId: id, createdAt: now });
    const grantId = randomUUID();
    await db
      .insert(delegatedAdminGrants)
      .values({ id: grantId, organizationId: id, membershipId: bobMembership, permissions: ['groups.manage'], createdAt: now });

    const removed = await removeMember(owner, id, bobMembership);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ revoked: true });
    expect((await membershipOf(id, bob.userId)).status).toBe('revoked');
    expect(await db.select().from(users).where(eq(users.id, bob.userId))).toHaveLength(1);
    expect(await db.select().from(groupMembers).where(eq(groupMembers.membershipId, bobMembership))).toEqual([]);
    expect((await db.select().from(delegatedAdminGrants).where(eq(delegatedAdminGrants.id, grantId)))[0]!.revokedAt).not.toBeNull();
    expect((await asBrowser(bob.browser, 'GET', '/api/organizations/{id}', { params: { id } })).status).toBe(404);
    // Bob can still use his account.
    expect((await asBrowser(bob.browser, 'GET', '/api/auth/session')).status).toBe(200);

    const events = await db.select().from(outboxEvents).where(eq(outboxEvents.type, 'identity.organization.member.removed'));
    expect(events.map((e) => e.payload)).toContainEqual({ organization_id: id, membership_id: bobMembership, user_id: bob.userId });

    // Revoked is final: no second revoke, no changes.
    expect((await removeMember(owner, id, bobMembership)).status).toBe(409);
    expect((await patchMember(owner, id, bobMembership, { status: 'active' })).status).toBe(409);
  });

  it('needs an approved request when the organization puts members.remove behind approvals', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const cy = await person(mailbox, 'cy');
    await joinAs(id, cy.userId, 'admin');
    const bobMembership = await joinAs(id, bob.userId, 'member');
    const db = await getDb();
    const now = new Date();
    await db
      .insert(organizationPolicies)
      .values({ organizationId: id, policyKey: 'approvals.required_for', value: ['members.remove'], createdAt: now, updatedAt: now });

    const gated = await removeMember(owner, id, bobMembership);
    expect(gated.status).toBe(403);
    expect(await problemOf(gated)).toMatchObject({ code: 'approval_required', approval: { action: 'members.remove', target: bobMembership } });
    expect((await membershipOf(id, bob.userId)).status).toBe('active');

    const approvalFor = async (target: string) => {
      const approvalId = randomUUID();
      await db.insert(approvals).values({
        id: approvalId,
        organizationId: id,
        action: 'members.remove',
        target,
        status: 'approved',
        requestedBy: owner.userId,
        decidedBy: cy.userId,
        decidedAt: now,
        expiresAt: new Date(now.getTime() + 3600_000),
        createdAt: now,
      });
      return approvalId;
    };
    const elsewhere = await approvalFor(randomUUID());
    expect((await removeMember(owner, id, bobMembership, `approval_id=${elsewhere}`)).status).toBe(403);
    const approval = await approvalFor(bobMembership);
    expect((await removeMember(owner, id, bobMembership, `approval_id=${approval}`)).status).toBe(200);
    expect((await db.select().from(approvals).where(eq(approvals.id, approval)))[0]!.consumedAt).not.toBeNull();
  });
});

describe('bearer reads of members', () => {
  it('lists the bound organization only; an unbound credential or another organization is refused', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const other = await ownedOrganization(mailbox, 'zed');
    const bob = await person(mailbox, 'bob');
    await joinAs(id, bob.userId, 'member');
    const bound = await organizationBearer(bob.userId, id);
    const response = await asBearer(bound, '/api/v1/organizations/{id}/members', id);
    expect(response.status, await response.clone().text()).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ authentication: 'oauth', scopes: ['identity.organization.read'], has_more: false });
    expect(body.members.map((m: { user_id: string }) => m.user_id).sort()).toEqual([owner.userId, bob.userId].sort());

    expect((await asBearer(bound, '/api/v1/organizations/{id}/members', other.id)).status).toBe(403);
    const unbound = await mintAccessToken(bob.userId, 'identity.organization.read');
    expect((await asBearer(unbound.value, '/api/v1/organizations/{id}/members', id)).status).toBe(403);
  });
});
