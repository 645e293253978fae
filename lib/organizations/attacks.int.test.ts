/**
 * The organization surface probed as an outsider (and as an insider reaching too far) would: ids of
 * another organization in bodies and queries, privilege escalation through roles, owners, approvals
 * and invitations, hostile input (control characters, oversized or pathological JSON Schemas) and
 * bearer credentials bound elsewhere. The generated matrix (tests/contract/tenant-isolation) covers
 * path ids, permissions and step-up; this file covers what it does not.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { approvals, invitations, memberships, organizationPolicies, organizationRoles } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { PATHOLOGICAL_SCHEMAS } from '@/tests/fixtures/pathological-schemas';
import { customRoleRow } from '@/tests/helpers/organization-roles';
import { call, operation, problemOf } from '@/tests/helpers/http';
import {
  acceptInvitation,
  asBearer,
  asBrowser,
  invitationTokenFor,
  invite,
  joinAs,
  organizationBearer,
  person,
  type Person,
  membershipOf,
  ownedOrganization,
} from '@/tests/helpers/organizations';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50' });
const MEMBER = '/api/organizations/{id}/members/{member_id}';

async function joinWithCustomRole(organizationId: string, userId: string, roleId: string) {
  const id = await joinAs(organizationId, userId, 'member');
  await (await getDb()).update(memberships).set({ role: 'custom', customRoleId: roleId }).where(eq(memberships.id, id));
  return id;
}

async function approvedApproval(organizationId: string, action: string, target: string, requestedBy: string, decidedBy: string) {
  const id = randomUUID();
  const now = new Date();
  await (await getDb()).insert(approvals).values({
    id,
    organizationId,
    action,
    target,
    status: 'approved',
    requestedBy,
    decidedBy,
    decidedAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    createdAt: now,
  });
  return id;
}

async function gate(organizationId: string, actions: string[]) {
  const now = new Date();
  await (
    await getDb()
  )
    .insert(organizationPolicies)
    .values({ organizationId, policyKey: 'approvals.required_for', value: actions, createdAt: now, updatedAt: now });
}

const patchMember = (actor: Person, id: string, memberId: string, body: unknown) =>
  asBrowser(actor.browser, 'PATCH', MEMBER, { params: { id, member_id: memberId }, body });

describe('ids of another organization in bodies and queries', () => {
  it("group members and delegated grants: another organization's membership id is not found, nothing is written", async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const other = await ownedOrganization(mailbox, 'zed');
    const group = await (await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name: 'Ops' } })).json();
    const added = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups/{group_id}/members', {
      params: { id, group_id: group.id },
      body: { membership_id: other.ownerMembership },
    });
    expect(added.status).toBe(404);
    const granted = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/delegated-admins', {
      params: { id },
      body: { membership_id: other.ownerMembership, permissions: ['groups.manage'] },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(granted.status).toBe(404);
    const list = await (await asBrowser(owner.browser, 'GET', '/api/organizations/{id}/delegated-admins', { params: { id } })).json();
    expect(list.delegated_admins).toEqual([]);
  });

  it('an approval of another organization, or for another target, does not open the gate', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const other = await ownedOrganization(mailbox, 'zed');
    const alan = await person(mailbox, 'alan');
    await joinAs(id, alan.userId, 'admin');
    const bob = await person(mailbox, 'bob');
    const bobMembership = await joinAs(id, bob.userId, 'member');
    const cyMembership = await joinAs(id, (await person(mailbox, 'cy')).userId, 'member');
    await gate(id, ['members.remove']);
    const foreign = await approvedApproval(other.id, 'members.remove', bobMembership, other.owner.userId, alan.userId);
    const otherTarget = await approvedApproval(id, 'members.remove', cyMembership, owner.userId, alan.userId);
    const otherAction = await approvedApproval(id, 'policies.delete', bobMembership, owner.userId, alan.userId);
    for (const approvalId of [foreign, otherTarget, otherAction, 'not-a-uuid']) {
      const response = await asBrowser(owner.browser, 'DELETE', MEMBER, { params: { id, member_id: bobMembership }, query: `approval_id=${approvalId}` });
      expect(response.status).toBe(403);
      expect((await problemOf(response)).code).toBe('approval_required');
    }
    expect((await membershipOf(id, bob.userId)).status).toBe('active');
  });

  it("the audit trail's actor filter never reaches another organization's events", async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const other = await ownedOrganization(mailbox, 'zed');
    // The other owner is also a member here, so their id is a plausible filter value.
    await joinAs(id, other.owner.userId, 'member');
    await asBrowser(other.owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id: other.id }, body: { name: 'Secret' } });
    const response = await asBrowser(owner.browser, 'GET', '/api/organizations/{id}/audit-events', { params: { id }, query: `actor_id=${other.owner.userId}` });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.audit_events).toEqual([]);
    const bogus = await asBrowser(owner.browser, 'GET', '/api/organizations/{id}/audit-events', { params: { id }, query: "actor_id=' or 1=1 --" });
    expect(bogus.status).toBe(200);
    expect((await bogus.json()).audit_events).toEqual([]);
  });

  it("another organization's custom role id is no role here (member change and invitation)", async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const other = await ownedOrganization(mailbox, 'zed');
    const foreignRole = await customRoleRow(other.id, 'Foreign', ['read']);
    const bobMembership = await joinAs(id, (await person(mailbox, 'bob')).userId, 'member');
    const changed = await patchMember(owner, id, bobMembership, { role: foreignRole });
    expect(changed.status).toBe(400);
    const invited = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/invitations', {
      params: { id },
      body: { email: 'new@example.test', role: foreignRole },
    });
    expect(invited.status).toBe(400);
  });
});

describe('privilege escalation', () => {
  it('a custom role holding members.manage cannot suspend, demote or remove a member whose role holds more', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const managers = await customRoleRow(id, 'Member managers', ['members.manage', 'audit.read']);
    const manager = await person(mailbox, 'manager');
    await joinWithCustomRole(id, manager.userId, managers);
    const alan = await person(mailbox, 'alan');
    const alanMembership = await joinAs(id, alan.userId, 'admin');

    for (const body of [{ status: 'suspended' }, { role: 'member' }, { role: managers }]) {
      const response = await patchMember(manager, id, alanMembership, body);
      expect(response.status, JSON.stringify(body)).toBe(403);
    }
    expect((await asBrowser(manager.browser, 'DELETE', MEMBER, { params: { id, member_id: alanMembership } })).status).toBe(403);
    expect(await membershipOf(id, alan.userId)).toMatchObject({ role: 'admin', status: 'active' });
    // Within their reach it works: a plain member.
    const bobMembership = await joinAs(id, (await person(mailbox, 'bob')).userId, 'member');
    expect((await patchMember(manager, id, bobMembership, { status: 'suspended' })).status).toBe(200);
    // And the owner still manages the admin.
    expect((await patchMember(owner, id, alanMembership, { role: 'member' })).status).toBe(200);
  });

  it('a custom role holding roles.manage cannot change a role that holds more than theirs', async () => {
    const { id } = await ownedOrganization(mailbox);
    const roleAdmins = await customRoleRow(id, 'Role admins', ['roles.manage', 'members.manage']);
    const policyAdmins = await customRoleRow(id, 'Policy admins', ['members.manage', 'policies.manage']);
    const helpers = await customRoleRow(id, 'Helpers', ['members.manage']);
    const editor = await person(mailbox, 'editor');
    await joinWithCustomRole(id, editor.userId, roleAdmins);
    await joinWithCustomRole(id, (await person(mailbox, 'pat')).userId, policyAdmins);
    const ROLE = '/api/organizations/{id}/roles/{role_id}';
    for (const body of [{ permissions: ['members.manage'] }, { name: 'Nobodies' }]) {
      const response = await asBrowser(editor.browser, 'PATCH', ROLE, { params: { id, role_id: policyAdmins }, body });
      expect(response.status, JSON.stringify(body)).toBe(403);
    }
    const [row] = await (await getDb()).select().from(organizationRoles).where(eq(organizationRoles.id, policyAdmins));
    expect(row).toMatchObject({ name: 'Policy admins', permissions: ['members.manage', 'policies.manage'] });
    expect((await asBrowser(editor.browser, 'PATCH', ROLE, { params: { id, role_id: helpers }, body: { name: 'Member helpers' } })).status).toBe(200);
  });

  it('an admin cannot demote, suspend or remove an owner, nor create a delegated grant, nor invite an owner', async () => {
    const { id, ownerMembership, owner } = await ownedOrganization(mailbox);
    const alan = await person(mailbox, 'alan');
    const alanMembership = await joinAs(id, alan.userId, 'admin');
    expect((await patchMember(alan, id, ownerMembership, { role: 'admin' })).status).toBe(403);
    expect((await patchMember(alan, id, ownerMembership, { status: 'suspended' })).status).toBe(403);
    expect((await asBrowser(alan.browser, 'DELETE', MEMBER, { params: { id, member_id: ownerMembership } })).status).toBe(403);
    expect((await patchMember(alan, id, alanMembership, { role: 'owner' })).status).toBe(403);
    const granted = await asBrowser(alan.browser, 'POST', '/api/organizations/{id}/delegated-admins', {
      params: { id },
      body: { membership_id: alanMembership, permissions: ['groups.manage'] },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(granted.status).toBe(403);
    const invited = await asBrowser(alan.browser, 'POST', '/api/organizations/{id}/invitations', {
      params: { id },
      body: { email: 'boss@example.test', role: 'owner' },
    });
    expect(invited.status).toBe(403);
    expect(await membershipOf(id, owner.userId)).toMatchObject({ role: 'owner', status: 'active' });
  });

  it('the last owner cannot suspend or demote themselves', async () => {
    const { owner, id, ownerMembership } = await ownedOrganization(mailbox);
    expect((await patchMember(owner, id, ownerMembership, { status: 'suspended' })).status).toBe(409);
    expect((await patchMember(owner, id, ownerMembership, { role: 'admin' })).status).toBe(409);
  });

  it('the requester cannot approve their own request from a second session', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const second = await (await import('@/tests/helpers/accounts')).signInWithPassword(owner.email, 'organization test passphrase');
    const requested = await (
      await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/approvals', {
        params: { id },
        body: { action: 'policies.delete', target: 'session.binding' },
      })
    ).json();
    const decided = await asBrowser(second, 'POST', '/api/organizations/{id}/approvals/{approval_id}', {
      params: { id, approval_id: requested.id },
      body: { decision: 'approve' },
    });
    expect(decided.status).toBe(403);
    expect(await problemOf(decided)).toMatchObject({ code: 'forbidden', reason: 'separation_of_duties' });
  });

  it('the member a delegated grant would empower cannot approve it', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const alan = await person(mailbox, 'alan');
    const alanMembership = await joinAs(id, alan.userId, 'admin');
    const requested = await (
      await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/approvals', {
        params: { id },
        body: { action: 'delegated_admins.create', target: `${alanMembership}: members.manage without expiry` },
      })
    ).json();
    const decided = await asBrowser(alan.browser, 'POST', '/api/organizations/{id}/approvals/{approval_id}', {
      params: { id, approval_id: requested.id },
      body: { decision: 'approve' },
    });
    expect(decided.status).toBe(403);
    expect(await problemOf(decided)).toMatchObject({ code: 'forbidden', reason: 'separation_of_duties' });
    // Rejecting it stays open to them.
    expect(
      (
        await asBrowser(alan.browser, 'POST', '/api/organizations/{id}/approvals/{approval_id}', {
          params: { id, approval_id: requested.id },
          body: { decision: 'reject' },
        })
      ).status,
    ).toBe(200);
  });

  it("a suspended member's session and bound token stop acting", async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const bobMembership = await joinAs(id, bob.userId, 'admin');
    const token = await organizationBearer(bob.userId, id);
    expect((await asBearer(token, '/api/v1/organizations/{id}/members', id)).status).toBe(200);
    expect((await patchMember(owner, id, bobMembership, { status: 'suspended' })).status).toBe(200);
    expect((await asBrowser(bob.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name: 'Mine' } })).status).toBe(404);
    expect([401, 404]).toContain((await asBearer(token, '/api/v1/organizations/{id}/members', id)).status);
  });

  it('an invitation never lifts a suspension (that is members.manage, not invitations.manage)', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const inviters = await customRoleRow(id, 'Inviters', ['invitations.manage', 'audit.read']);
    const inviter = await person(mailbox, 'inviter');
    await joinWithCustomRole(id, inviter.userId, inviters);
    const bob = await person(mailbox, 'bob');
    const bobMembership = await joinAs(id, bob.userId, 'member');
    expect((await patchMember(owner, id, bobMembership, { status: 'suspended' })).status).toBe(200);
    const invited = await asBrowser(inviter.browser, 'POST', '/api/organizations/{id}/invitations', {
      params: { id },
      body: { email: bob.email, role: 'member' },
    });
    expect(invited.status).toBe(409);
    // Even an invitation that exists (stored as test data) is not accepted while suspended.
    const { token } = await invite(owner, id, (await person(mailbox, 'cy')).email, 'member', mailbox);
    await (
      await getDb()
    )
      .update(invitations)
      .set({ email: bob.email })
      .where(and(eq(invitations.organizationId, id), eq(invitations.status, 'pending')));
    const accepted = await acceptInvitation(bob, token);
    expect(accepted.status).toBe(409);
    expect((await membershipOf(id, bob.userId)).status).toBe('suspended');
  });

  it('a revoked member cannot come back through an invitation mailed before the revocation', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    // Bob is invited as admin; before he accepts he is in by another way (test data), then removed for good.
    const { token } = await invite(owner, id, bob.email, 'admin', mailbox);
    const bobMembership = await joinAs(id, bob.userId, 'member');
    expect((await asBrowser(owner.browser, 'DELETE', MEMBER, { params: { id, member_id: bobMembership } })).status).toBe(200);
    const accepted = await acceptInvitation(bob, token);
    expect(accepted.status).toBe(404);
    expect((await membershipOf(id, bob.userId)).status).toBe('revoked');
    const [row] = await (await getDb()).select().from(invitations).where(eq(invitations.organizationId, id));
    expect(row!.status).toBe('revoked');
  });
});

describe('races', () => {
  it('assigning a custom role while it is deleted: never both, never a member left with a deleted role', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const role = await customRoleRow(id, 'Short-lived', ['groups.manage']);
    const bob = await person(mailbox, 'bob');
    const bobMembership = await joinAs(id, bob.userId, 'member');
    const [assigned, deleted] = await Promise.all([
      patchMember(owner, id, bobMembership, { role }),
      asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}/roles/{role_id}', { params: { id, role_id: role } }),
    ]);
    expect([assigned.status, deleted.status].filter((s) => s === 200)).toHaveLength(1);
    const bobNow = await membershipOf(id, bob.userId);
    if (assigned.status === 200) expect(bobNow).toMatchObject({ role: 'custom', customRoleId: role });
    else expect(bobNow).toMatchObject({ role: 'member', customRoleId: null });
  });

  it('a resend racing an acceptance with the old link: the old link never works after the resend', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const { id: invitationId, token } = await invite(owner, id, bob.email, 'member', mailbox);
    const [resent, accepted] = await Promise.all([
      asBrowser(owner.browser, 'POST', '/api/organizations/{id}/invitations/{invitation_id}', { params: { id, invitation_id: invitationId }, body: {} }),
      acceptInvitation(bob, token),
    ]);
    if (resent.status === 200) expect(accepted.status).toBe(404);
    else expect([resent.status, accepted.status]).toEqual([409, 200]);
  });
});

describe('invitations', () => {
  it('the address matches in any letter case; a look-alike (trailing dot, compatibility form) does not', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const shouted = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/invitations', {
      params: { id },
      body: { email: bob.email.toUpperCase(), role: 'member' },
    });
    expect(shouted.status).toBe(201);
    expect((await acceptInvitation(bob, invitationTokenFor(mailbox, bob.email))).status).toBe(200);

    const trailing = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/invitations', {
      params: { id },
      body: { email: 'cy@example.test.', role: 'member' },
    });
    expect(trailing.status).toBe(400);
    // Fullwidth "ｃｙ" is another address (NFC keeps it), and not one the address rule admits (ASCII
    // addresses only, as at enrollment): refused, so no invitation of cy's look-alike exists at all.
    const cy = await person(mailbox, 'cy');
    const [local, domain] = cy.email.split('@') as [string, string];
    const fullwidth = [...local].map((c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('') + '@' + domain;
    const created = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/invitations', {
      params: { id },
      body: { email: fullwidth, role: 'member' },
    });
    expect(created.status).toBe(400);
    expect(
      await (
        await getDb()
      )
        .select()
        .from(invitations)
        .where(and(eq(invitations.organizationId, id), eq(invitations.status, 'pending'))),
    ).toEqual([]);
  });

  it('an accepted link cannot be replayed, by the invitee or anyone else', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const { token } = await invite(owner, id, bob.email, 'member', mailbox);
    expect((await acceptInvitation(bob, token)).status).toBe(200);
    expect((await acceptInvitation(bob, token)).status).toBe(404);
    const mallory = await person(mailbox, 'mallory');
    expect((await acceptInvitation(mallory, token)).status).toBe(404);
  });
});

describe('hostile input', () => {
  it('refuses NUL and control characters in names, descriptions and schema keys', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const attempts: [string, string, unknown][] = [
      ['POST', '/api/organizations/{id}/groups', { name: 'Ops\u0000' }],
      ['POST', '/api/organizations/{id}/roles', { name: 'Ops', description: 'x\u001b[31m', permissions: ['read'] }],
      ['PATCH', '/api/organizations/{id}', { name: 'Acme\u0007' }],
      [
        'POST',
        '/api/organizations/{id}/agent/actions',
        { name: 'a', description: 'd', input_schema: { type: 'object', properties: { 'x\u0000': { type: 'string' } } }, risk_level: 'low' },
      ],
      ['POST', '/api/organizations/{id}/approvals', { action: 'policies.delete', target: 'session.binding\u0000' }],
    ];
    for (const [method, path, body] of attempts) {
      const response = await asBrowser(owner.browser, method, path, { params: { id }, body });
      expect(response.status, `${method} ${path}`).toBe(400);
    }
  });

  it('refuses line breaks and bidirectional overrides in names that reach invitation mails and the console', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const phishing = 'Acme\n\nURGENT: your account is locked, sign in at https://evil.example';
    const spoof = 'Acme \u202egnp.exe';
    for (const name of [phishing, spoof, 'Acme\u2028Corp', 'Acme\tCorp']) {
      expect((await asBrowser(owner.browser, 'POST', '/api/organizations', { body: { name } })).status, JSON.stringify(name)).toBe(400);
      expect((await asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}', { params: { id }, body: { name } })).status).toBe(400);
      expect((await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/roles', { params: { id }, body: { name, permissions: ['read'] } })).status).toBe(
        400,
      );
      expect((await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name } })).status).toBe(400);
    }
    // Scripts that need joiners keep working.
    expect(
      (await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name: 'می\u200cخواهم 👩\u200d💻' } })).status,
    ).toBe(201);
  });

  it('refuses oversized names and descriptions', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    expect((await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name: 'x'.repeat(101) } })).status).toBe(400);
    expect(
      (
        await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/roles', {
          params: { id },
          body: { name: 'r', description: 'x'.repeat(501), permissions: ['read'] },
        })
      ).status,
    ).toBe(400);
    const action = { name: 'big', description: 'x'.repeat(1001), input_schema: { type: 'object' }, risk_level: 'low' };
    expect((await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/agent/actions', { params: { id }, body: action })).status).toBe(400);
  });

  // How long judging each takes is measured by bench/agent-action-schemas.ts (figures, not a test).
  it('answers pathological input schemas with 400 (deep nesting, huge or catastrophic patterns, $ref loops), legitimate ones with 201', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const answers: Record<string, number> = {};
    for (const [i, { name, schema }] of PATHOLOGICAL_SCHEMAS.entries()) {
      const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/agent/actions', {
        params: { id },
        body: { name: `evil-${i}`, description: 'probe', input_schema: schema, risk_level: 'low' },
      });
      answers[name] = response.status;
    }
    // Refused: too deep, catastrophic (nested quantifiers) or oversized patterns, an endless $ref, a
    // remote $ref (never fetched). A wide but finite $ref fan-out compiles (each definition once) and
    // is a legitimate schema, as is a slug pattern written without a repeated quantified group.
    expect(answers).toEqual(Object.fromEntries(PATHOLOGICAL_SCHEMAS.map((s) => [s.name, s.status])));
  });
});

describe('policy values at the edges', () => {
  it('an admin cannot set sign-in methods their own session does not use (nobody could undo it)', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const POLICIES = '/api/organizations/{id}/policies';
    for (const value of [['federation'], ['passkey', 'email_code']]) {
      const refused = await asBrowser(owner.browser, 'POST', POLICIES, { params: { id }, body: { policy_key: 'signin.allowed_methods', value } });
      expect(refused.status, JSON.stringify(value)).toBe(409);
    }
    expect((await asBrowser(owner.browser, 'GET', '/api/organizations/{id}', { params: { id } })).status).toBe(200);
    // Including the method the session signed in with is fine.
    expect(
      (await asBrowser(owner.browser, 'POST', POLICIES, { params: { id }, body: { policy_key: 'signin.allowed_methods', value: ['password', 'passkey'] } }))
        .status,
    ).toBe(200);
    for (const value of [[], ['password', 'password'], ['sms'], 'password']) {
      expect((await asBrowser(owner.browser, 'POST', POLICIES, { params: { id }, body: { policy_key: 'signin.allowed_methods', value } })).status).toBe(400);
    }
    for (const value of [299, 1e12, -1, 300.5, '600', null]) {
      expect(
        (await asBrowser(owner.browser, 'POST', POLICIES, { params: { id }, body: { policy_key: 'session.max_age_seconds', value } })).status,
        String(value),
      ).toBe(400);
    }
  });
});

describe('the policies.delete gate', () => {
  it('cannot be sidestepped by setting a gated policy back towards its default', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const alan = await person(mailbox, 'alan');
    await joinAs(id, alan.userId, 'admin');
    const set = (policy_key: string, value: unknown, approvalId?: string) =>
      asBrowser(owner.browser, 'POST', '/api/organizations/{id}/policies', {
        params: { id },
        body: { policy_key, value },
        query: approvalId ? `approval_id=${approvalId}` : undefined,
      });
    // Tightening is never gated.
    expect((await set('session.binding', true)).status).toBe(200);
    expect((await set('session.max_age_seconds', 3600)).status).toBe(200);
    expect((await set('signin.allowed_methods', ['password', 'passkey'])).status).toBe(200);
    await gate(id, ['policies.delete']);
    for (const [key, value] of [
      ['session.binding', false],
      ['session.max_age_seconds', 7200],
      ['signin.allowed_methods', ['password', 'passkey', 'email_code']],
    ] as const) {
      const loosened = await set(key, value);
      expect(loosened.status, key).toBe(403);
      expect(await problemOf(loosened)).toMatchObject({ code: 'approval_required', approval: { action: 'policies.delete', target: key } });
    }
    // Tightening further still goes through; loosening with an approval for that key does too.
    expect((await set('session.max_age_seconds', 1800)).status).toBe(200);
    expect((await set('signin.allowed_methods', ['password'])).status).toBe(200);
    const approval = await approvedApproval(id, 'policies.delete', 'session.binding', owner.userId, alan.userId);
    expect((await set('session.binding', false, approval)).status).toBe(200);
  });
});

describe('replays and cursors', () => {
  it('an Idempotency-Key used in one organization never replays its answer into another', async () => {
    const a = await ownedOrganization(mailbox);
    const b = await ownedOrganization(mailbox, 'zed');
    await joinAs(b.id, a.owner.userId, 'owner');
    const bobInA = await joinAs(a.id, (await person(mailbox, 'bob')).userId, 'member');
    const cyInB = await joinAs(b.id, (await person(mailbox, 'cy')).userId, 'member');
    const key = randomUUID();
    const grant = (id: string, membership_id: string) =>
      asBrowser(a.owner.browser, 'POST', '/api/organizations/{id}/delegated-admins', {
        params: { id },
        body: { membership_id, permissions: ['groups.manage'] },
        headers: { 'idempotency-key': key },
      });
    const first = await grant(a.id, bobInA);
    expect(first.status).toBe(201);
    const firstGrant = await first.json();
    // Keys are scoped to principal + operation + key (docs/decisions.md, Idempotency): the same key on
    // another organization's path is the same key with another request, refused, never replayed.
    const second = await grant(b.id, cyInB);
    expect(second.status).toBe(422);
    expect((await problemOf(second)).code).toBe('idempotency_key_reused');
    const listed = await (await asBrowser(a.owner.browser, 'GET', '/api/organizations/{id}/delegated-admins', { params: { id: b.id } })).json();
    expect(listed.delegated_admins.map((g: { id: string }) => g.id)).not.toContain(firstGrant.id);
  });

  it('a forged or foreign cursor is a 400, never a 500, and never widens the tenant', async () => {
    const a = await ownedOrganization(mailbox);
    const b = await ownedOrganization(mailbox, 'zed');
    for (let i = 0; i < 2; i += 1) await joinAs(b.id, (await person(mailbox, 'm')).userId, 'member');
    const page = await (await asBrowser(b.owner.browser, 'GET', '/api/organizations/{id}/members', { params: { id: b.id }, query: 'limit=1' })).json();
    // A cursor is bound to its operation (docs/decisions.md, Cursors), and is only a position: the page
    // read from it is still the caller's organization's, so B's cursor on A's list shows A's members.
    const foreign = await asBrowser(a.owner.browser, 'GET', '/api/organizations/{id}/members', {
      params: { id: a.id },
      query: `limit=1&cursor=${page.next_cursor}`,
    });
    expect(foreign.status).toBe(200);
    // (Newest first: the position is after B's newest member, so A's older owner is on the page.)
    expect((await foreign.json()).members.map((m: { user_id: string }) => m.user_id)).toEqual([a.owner.userId]);
    for (const cursor of ['garbage', 'eyJ4IjoxfQ', '%00', 'A'.repeat(5000)]) {
      const response = await asBrowser(a.owner.browser, 'GET', '/api/organizations/{id}/members', { params: { id: a.id }, query: `cursor=${cursor}` });
      expect(response.status, cursor.slice(0, 20)).toBe(400);
    }
    expect((await asBrowser(a.owner.browser, 'GET', '/api/organizations/{id}/members', { params: { id: a.id }, query: 'limit=1000' })).status).toBe(400);
  });
});

describe('bearer credentials', () => {
  it('a token bound to A reads nothing of B, nested paths included; an API key without a store is 401', async () => {
    const a = await ownedOrganization(mailbox);
    const b = await ownedOrganization(mailbox, 'zed');
    // The holder is a member of both: only the binding keeps them to A.
    await joinAs(b.id, a.owner.userId, 'admin');
    const group = await (await asBrowser(b.owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id: b.id }, body: { name: 'B team' } })).json();
    const token = await organizationBearer(a.owner.userId, a.id, 'identity.organization.read identity.organization.members.read');
    const nested = await call(operation('GET', '/api/v1/organizations/{id}/groups/{group_id}/members'), {
      params: { id: b.id, group_id: group.id },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(nested.status).toBe(403);
    expect((await asBearer(token, '/api/v1/organizations/{id}/members', b.id)).status).toBe(403);
    const foreignGroupInA = await call(operation('GET', '/api/v1/organizations/{id}/groups/{group_id}/members'), {
      params: { id: a.id, group_id: group.id },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(foreignGroupInA.status).toBe(404);
    expect((await asBearer('idk_' + 'x'.repeat(40), '/api/v1/organizations/{id}/members', a.id)).status).toBe(401);
  });
});

describe('information leaks', () => {
  it("a plain member's bound token cannot read the invited addresses the member cannot see in the browser", async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    await joinAs(id, bob.userId, 'member');
    await invite(owner, id, `secret.${randomUUID().slice(0, 8)}@example.test`, 'member', mailbox);
    expect((await asBrowser(bob.browser, 'GET', '/api/organizations/{id}/invitations', { params: { id } })).status).toBe(403);
    const bobToken = await organizationBearer(bob.userId, id);
    const refused = await asBearer(bobToken, '/api/v1/organizations/{id}/invitations', id);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain('secret.');
    const ownerToken = await organizationBearer(owner.userId, id);
    expect((await asBearer(ownerToken, '/api/v1/organizations/{id}/invitations', id)).status).toBe(200);
  });

  it('an outsider cannot tell an existing organization from an unknown one', async () => {
    const { id } = await ownedOrganization(mailbox);
    const outsider = await person(mailbox, 'outsider');
    const known = await asBrowser(outsider.browser, 'GET', '/api/organizations/{id}/members', { params: { id } });
    const unknown = await asBrowser(outsider.browser, 'GET', '/api/organizations/{id}/members', { params: { id: randomUUID() } });
    expect(known.status).toBe(404);
    expect(unknown.status).toBe(404);
    const strip = (p: Record<string, unknown>) => ({ ...p, instance: undefined, request_id: undefined, trace_id: undefined });
    expect(strip(await problemOf(known))).toEqual(strip(await problemOf(unknown)));
  });
});
