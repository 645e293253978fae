/**
 * Delegated-admin grants through the real pipeline: only an owner creates them, the delegate acts
 * within the grant and nowhere else, and not after it expires or is revoked; the approval gate.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { approvals, organizationPolicies } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, createOrganization, joinAs, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();

const grantsPath = '/api/organizations/{id}/delegated-admins';
const grantPath = '/api/organizations/{id}/delegated-admins/{delegation_id}';
const minutes = (n: number) => () => new Date(Date.now() + n * 60_000);

const grant = (who: Person, id: string, body: Record<string, unknown>, key = randomUUID()) =>
  asBrowser(who.browser, 'POST', grantsPath, { params: { id }, body, headers: { 'idempotency-key': key } });
const revoke = (who: Person, id: string, delegationId: string) =>
  asBrowser(who.browser, 'DELETE', grantPath, { params: { id, delegation_id: delegationId }, headers: { 'idempotency-key': randomUUID() } });
const createGroup = (who: Person, id: string, name: string, now?: () => Date) =>
  asBrowser(who.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name }, now });

async function statuses(who: Person, id: string, now?: () => Date) {
  const body = await (await asBrowser(who.browser, 'GET', grantsPath, { params: { id }, now })).json();
  return Object.fromEntries(body.delegated_admins.map((g: { id: string; status: string }) => [g.id, g.status]));
}

/** Ada owns the organization, Alan is an admin, Bob a member. */
async function organizationOfThree() {
  const [ada, alan, bob] = [await person(mailbox, 'ada'), await person(mailbox, 'alan'), await person(mailbox, 'bob')];
  const id = await createOrganization(ada);
  await joinAs(id, alan.userId, 'admin');
  return { ada, alan, bob, id, bobMembership: await joinAs(id, bob.userId, 'member') };
}

describe('delegated admins', () => {
  it('lets the delegate act within the grant, refuses outside it, and refuses after it expires', async () => {
    const { ada, bob, id, bobMembership } = await organizationOfThree();
    expect((await createGroup(bob, id, 'Before')).status).toBe(403);

    const expiresAt = new Date(Date.now() + 5 * 60_000).toISOString();
    const created = await grant(ada, id, { membership_id: bobMembership, permissions: ['groups.manage'], expires_at: expiresAt });
    expect(created.status, await created.clone().text()).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({
      membership_id: bobMembership,
      user_id: bob.userId,
      email: bob.email,
      permissions: ['groups.manage'],
      expires_at: expiresAt,
      status: 'active',
    });

    // Within the grant (Bob's password sign-in is his step-up, good for 10 minutes).
    expect((await createGroup(bob, id, 'During', minutes(1))).status).toBe(201);
    const mine = await (await asBrowser(bob.browser, 'GET', '/api/organizations/{id}', { params: { id } })).json();
    expect(mine.membership).toMatchObject({ role: 'member', permissions: ['read', 'groups.manage', 'audit.read'] });
    // Outside it.
    const outside = await asBrowser(bob.browser, 'POST', '/api/organizations/{id}/roles', {
      params: { id },
      body: { name: 'Mine', permissions: ['groups.manage'] },
    });
    expect(outside.status).toBe(403);
    expect((await problemOf(outside)).permission).toBe('roles.manage');
    // After the expiry (still inside his step-up window).
    const after = await createGroup(bob, id, 'After', minutes(6));
    expect(after.status).toBe(403);
    expect(await problemOf(after)).toMatchObject({ code: 'forbidden', permission: 'groups.manage' });
    expect(await statuses(ada, id, minutes(6))).toEqual({ [body.id]: 'expired' });
  });

  it('lends permissions to use, never to hand out: a delegate cannot make a lent permission lasting', async () => {
    const { ada, bob, id, bobMembership } = await organizationOfThree();
    const created = await grant(ada, id, { membership_id: bobMembership, permissions: ['roles.manage', 'members.manage'] });
    expect(created.status).toBe(201);
    // Bob may manage roles, but a role holding what only his grant gives him is refused ...
    const lasting = await asBrowser(bob.browser, 'POST', '/api/organizations/{id}/roles', {
      params: { id },
      body: { name: 'Forever', permissions: ['members.manage'] },
    });
    expect(lasting.status).toBe(403);
    expect((await problemOf(lasting)).permission).toBe('members.manage');
    // ... and so is giving himself (or anyone) the admin role with the lent members.manage.
    const promoted = await asBrowser(bob.browser, 'PATCH', '/api/organizations/{id}/members/{member_id}', {
      params: { id, member_id: bobMembership },
      body: { role: 'admin' },
    });
    expect(promoted.status).toBe(403);
    // What his own role holds he may put in a role.
    const reading = await asBrowser(bob.browser, 'POST', '/api/organizations/{id}/roles', {
      params: { id },
      body: { name: 'Reader', permissions: ['audit.read'] },
    });
    expect(reading.status).toBe(201);
  });

  it('ends a revoked grant at once, and revokes once', async () => {
    const { ada, bob, id, bobMembership } = await organizationOfThree();
    const { id: grantId } = await (await grant(ada, id, { membership_id: bobMembership, permissions: ['roles.manage', 'audit.read'] })).json();
    const role = await asBrowser(bob.browser, 'POST', '/api/organizations/{id}/roles', {
      params: { id },
      body: { name: 'Readers', permissions: ['audit.read'] },
    });
    expect(role.status).toBe(201);

    const revoked = await revoke(ada, id, grantId);
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ revoked: true });
    expect(
      (await asBrowser(bob.browser, 'POST', '/api/organizations/{id}/roles', { params: { id }, body: { name: 'More', permissions: ['audit.read'] } })).status,
    ).toBe(403);
    expect(await statuses(ada, id)).toEqual({ [grantId]: 'revoked' });
    expect((await revoke(ada, id, grantId)).status).toBe(409);
    expect((await revoke(ada, id, randomUUID())).status).toBe(404);
    // Revoking needs an Idempotency-Key.
    const keyless = await asBrowser(ada.browser, 'DELETE', grantPath, { params: { id, delegation_id: grantId } });
    expect((await problemOf(keyless)).code).toBe('idempotency_key_required');
  });

  it('is created by an owner only; admins list and revoke', async () => {
    const { ada, alan, bob, id, bobMembership } = await organizationOfThree();

    const byAdmin = await grant(alan, id, { membership_id: bobMembership, permissions: ['groups.manage'] });
    expect(byAdmin.status).toBe(403);
    expect(await problemOf(byAdmin)).toMatchObject({ code: 'forbidden', permission: 'owner' });
    const { id: grantId } = await (await grant(ada, id, { membership_id: bobMembership, permissions: ['groups.manage'] })).json();
    expect(await statuses(alan, id)).toEqual({ [grantId]: 'active' });
    expect((await revoke(alan, id, grantId)).status).toBe(200);
    // A member (even a delegate) does not see the grants.
    const list = await asBrowser(bob.browser, 'GET', grantsPath, { params: { id } });
    expect((await problemOf(list)).permission).toBe('delegations.manage');
  });

  it('validates the grant: delegable permissions, expiry, an active member of this organization', async () => {
    const { ada, bob, id, bobMembership } = await organizationOfThree();
    const other = await createOrganization(ada, 'Other');
    const foreignMembership = await joinAs(other, bob.userId, 'member');
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

    const answers = [];
    for (const body of [
      { membership_id: bobMembership, permissions: [] },
      { membership_id: bobMembership, permissions: ['delegations.manage'] },
      { membership_id: bobMembership, permissions: ['read'] },
      { membership_id: bobMembership, permissions: ['groups.manage'], expires_at: inDays(-1) },
      { membership_id: bobMembership, permissions: ['groups.manage'], expires_at: inDays(366) },
      { membership_id: bobMembership, permissions: ['groups.manage'], expires_at: 'tomorrow' },
      { membership_id: foreignMembership, permissions: ['groups.manage'] },
    ]) {
      const response = await grant(ada, id, body);
      const problem = await problemOf(response);
      answers.push([response.status, problem.code, (problem.errors as { path: string }[] | undefined)?.[0]?.path ?? null]);
    }
    expect(answers).toEqual([
      [400, 'invalid_request', 'body.permissions'],
      [400, 'invalid_request', 'body.permissions.0'],
      [400, 'invalid_request', 'body.permissions.0'],
      [400, 'invalid_request', 'expires_at'],
      [400, 'invalid_request', 'expires_at'],
      [400, 'invalid_request', 'body.expires_at'],
      [404, 'not_found', null],
    ]);
    expect(await statuses(ada, id)).toEqual({});
    // A year ahead is allowed.
    expect((await grant(ada, id, { membership_id: bobMembership, permissions: ['groups.manage', 'groups.manage'], expires_at: inDays(364) })).status).toBe(201);
  });

  it('needs an approved request when the organization puts grants behind approval', async () => {
    const { ada, alan, id, bobMembership } = await organizationOfThree();
    const db = await getDb();
    const now = new Date();
    await db
      .insert(organizationPolicies)
      .values({ organizationId: id, policyKey: 'approvals.required_for', value: ['delegated_admins.create'], createdAt: now, updatedAt: now });

    const ungated = await grant(ada, id, { membership_id: bobMembership, permissions: ['groups.manage'] });
    expect(ungated.status).toBe(403);
    // The approval names the whole grant: member, permissions and expiry.
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const target = `${bobMembership}: groups.manage without expiry`;
    expect(await problemOf(ungated)).toMatchObject({ code: 'approval_required', approval: { action: 'delegated_admins.create', target } });

    // Approved by another admin (test data: the approvals API has its own tests).
    const approvalId = randomUUID();
    await db.insert(approvals).values({
      id: approvalId,
      organizationId: id,
      action: 'delegated_admins.create',
      target,
      status: 'approved',
      requestedBy: ada.userId,
      decidedBy: alan.userId,
      decidedAt: now,
      expiresAt: new Date(now.getTime() + 3_600_000),
      createdAt: now,
    });
    // It cannot be spent on more than was approved: other permissions, or an expiry it did not name.
    const wider = await grant(ada, id, { membership_id: bobMembership, permissions: ['groups.manage', 'members.manage'], approval_id: approvalId });
    expect(await problemOf(wider)).toMatchObject({
      code: 'approval_required',
      approval: { target: `${bobMembership}: members.manage, groups.manage without expiry` },
    });
    expect(
      (await grant(ada, id, { membership_id: bobMembership, permissions: ['groups.manage'], expires_at: inDays(30), approval_id: approvalId })).status,
    ).toBe(403);
    expect((await grant(ada, id, { membership_id: bobMembership, permissions: ['groups.manage'], approval_id: approvalId })).status).toBe(201);
    // Used up.
    expect((await grant(ada, id, { membership_id: bobMembership, permissions: ['groups.manage'], approval_id: approvalId })).status).toBe(403);
  });
});
