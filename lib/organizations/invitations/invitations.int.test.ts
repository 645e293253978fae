/**
 * Invitations through the real pipeline and a real SMTP sink: the link from the mail, single use,
 * resend (the old link stops working), expiry, revocation, the invitee's own address only, concurrent
 * accepts, re-inviting a revoked member, and the bearer read.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db';
import { auditEvents, invitations, memberships, organizationRoles, outboxEvents } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import {
  acceptInvitation,
  asBearer,
  asBrowser,
  createOrganization,
  invitationTokenFor,
  invite,
  joinAs,
  organizationBearer,
  person,
  type Person,
} from '@/tests/helpers/organizations';

// Invitations live five minutes here, inside the step-up window, so `now` can pass an expiry while
// the session and its step-up are still good.
const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50', INVITATION_TTL_SECONDS: '300' });
const INVITATIONS = '/api/organizations/{id}/invitations';
const INVITATION = '/api/organizations/{id}/invitations/{invitation_id}';

const later = (seconds: number) => () => new Date(Date.now() + seconds * 1000);

async function organizationOf() {
  const owner = await person(mailbox, 'owner');
  return { owner, id: await createOrganization(owner) };
}

async function listed(actor: Person, id: string, query?: string, now?: () => Date) {
  const response = await asBrowser(actor.browser, 'GET', INVITATIONS, { params: { id }, query, now });
  expect(response.status).toBe(200);
  return ((await response.json()) as { invitations: { id: string; email: string; role: string; status: string; expires_at: string }[] }).invitations;
}

async function membershipsOf(organizationId: string, userId: string) {
  return (await getDb())
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}

describe('inviting and accepting', () => {
  it('mails a single-use link whose token is stored only as its hash; accepting makes the person a member', async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    const created = await asBrowser(owner.browser, 'POST', INVITATIONS, { params: { id }, body: { email: bob.email, role: 'admin' } });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ email: bob.email, role: 'admin', role_name: 'admin', status: 'pending' });
    expect(Object.keys(body).sort()).toEqual(['created_at', 'email', 'expires_at', 'id', 'role', 'role_name', 'status']);
    expect(new Date(body.expires_at).getTime() - new Date(body.created_at).getTime()).toBe(getConfig().ttl.invitation * 1000);

    const mail = mailbox.textTo(bob.email);
    expect(mail).toContain(`${getConfig().baseUrl}/invitations/accept?token=`);
    expect(mailbox.lastTo(bob.email).raw).toContain(`Subject: ${owner.email} invited you to join Acme`);
    const token = invitationTokenFor(mailbox, bob.email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await (await getDb()).select().from(invitations).where(eq(invitations.id, body.id));
    expect(stored!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    // The token appears in no audit record or event.
    const audit = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.organizationId, id));
    const events = await (await getDb()).select().from(outboxEvents).where(eq(outboxEvents.organizationId, id));
    expect(JSON.stringify([audit, events])).not.toContain(token);
    expect(events.map((e) => e.payload)).toContainEqual({ organization_id: id, invitation_id: body.id });

    const accepted = await acceptInvitation(bob, token);
    expect(accepted.status).toBe(200);
    const { organization_id, membership_id } = await accepted.json();
    expect(organization_id).toBe(id);
    expect(await membershipsOf(id, bob.userId)).toMatchObject([{ id: membership_id, role: 'admin', status: 'active' }]);
    const read = await asBrowser(bob.browser, 'GET', '/api/organizations/{id}', { params: { id } });
    expect(await read.json()).toMatchObject({ membership: { id: membership_id, role: 'admin' } });
    expect((await listed(owner, id)).find((i) => i.id === body.id)?.status).toBe('accepted');
    const [after] = await (await getDb()).select().from(invitations).where(eq(invitations.id, body.id));
    expect(after).toMatchObject({ status: 'accepted', membershipId: membership_id });

    // Single use: the same link again is not valid.
    const again = await acceptInvitation(bob, token);
    expect(again.status).toBe(404);
    expect(await problemOf(again)).toMatchObject({ code: 'not_found', detail: 'This invitation link is not valid or has expired.' });
  });

  it('refuses an address that is an active member or has a pending invitation (any letter case)', async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    await joinAs(id, bob.userId, 'member');
    const member = await asBrowser(owner.browser, 'POST', INVITATIONS, { params: { id }, body: { email: bob.email.toUpperCase(), role: 'member' } });
    expect(member.status).toBe(409);
    const address = `new.${randomUUID().slice(0, 8)}@example.test`;
    await invite(owner, id, address, 'member', mailbox);
    const twice = await asBrowser(owner.browser, 'POST', INVITATIONS, { params: { id }, body: { email: address.toUpperCase(), role: 'admin' } });
    expect(twice.status).toBe(409);
    expect((await listed(owner, id)).filter((i) => i.email === address)).toHaveLength(1);
    const bad = await asBrowser(owner.browser, 'POST', INVITATIONS, { params: { id }, body: { email: 'not an address', role: 'member' } });
    expect(bad.status).toBe(400);
  });

  it('fixes the role at invitation time and never beyond the inviter', async () => {
    const { owner, id } = await organizationOf();
    const inviter = await person(mailbox, 'inviter');
    const now = new Date();
    const inviters = randomUUID();
    await (
      await getDb()
    )
      .insert(organizationRoles)
      .values({ id: inviters, organizationId: id, name: 'Inviters', permissions: ['invitations.manage', 'audit.read'], createdAt: now, updatedAt: now });
    await joinAs(id, inviter.userId, 'member');
    await (
      await getDb()
    )
      .update(memberships)
      .set({ role: 'custom', customRoleId: inviters })
      .where(and(eq(memberships.organizationId, id), eq(memberships.userId, inviter.userId)));
    const email = `x.${randomUUID().slice(0, 8)}@example.test`;
    for (const role of ['admin', 'owner']) {
      const response = await asBrowser(inviter.browser, 'POST', INVITATIONS, { params: { id }, body: { email, role } });
      expect(response.status).toBe(403);
      expect((await problemOf(response)).code).toBe('forbidden');
    }
    // A member holds read and audit.read, both of which the inviter has.
    expect((await asBrowser(inviter.browser, 'POST', INVITATIONS, { params: { id }, body: { email, role: 'member' } })).status).toBe(201);
    const custom = await asBrowser(owner.browser, 'POST', INVITATIONS, { params: { id }, body: { email: `y.${email}`, role: inviters } });
    expect(await custom.json()).toMatchObject({ role: inviters, role_name: 'Inviters' });
    // Listing needs invitations.manage: a plain member may not.
    const plain = await person(mailbox, 'plain');
    await joinAs(id, plain.userId, 'member');
    const refused = await asBrowser(plain.browser, 'GET', INVITATIONS, { params: { id } });
    expect(await problemOf(refused)).toMatchObject({ code: 'forbidden', permission: 'invitations.manage' });
  });

  it("refuses another account's acceptance without revealing the invited address", async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    const eve = await person(mailbox, 'eve');
    const { token } = await invite(owner, id, bob.email, 'member', mailbox);
    const refused = await acceptInvitation(eve, token);
    expect(refused.status).toBe(403);
    const problem = await problemOf(refused);
    expect(problem.code).toBe('forbidden');
    expect(JSON.stringify(problem)).not.toContain(bob.email);
    expect(JSON.stringify(problem).toLowerCase()).not.toContain(bob.email.split('@')[0]!.toLowerCase());
    expect(await membershipsOf(id, eve.userId)).toEqual([]);
    // The invitation is untouched: its own addressee still accepts.
    expect((await acceptInvitation(bob, token)).status).toBe(200);
  });

  it('needs a signed-in session with the exact Origin and the CSRF token', async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    const { token } = await invite(owner, id, bob.email, 'member', mailbox);
    expect((await asBrowser(null, 'POST', '/api/organizations/invitations/accept', { body: { token } })).status).toBe(401);
    const noCsrf = await asBrowser(null, 'POST', '/api/organizations/invitations/accept', { body: { token }, headers: { cookie: bob.browser.cookie } });
    expect((await problemOf(noCsrf)).code).toBe('csrf_failed');
    const foreign = await acceptInvitation(bob, token, { headers: { origin: 'https://evil.example' } });
    expect((await problemOf(foreign)).code).toBe('origin_mismatch');
    expect(await membershipsOf(id, bob.userId)).toEqual([]);
  });

  it('creates one membership when the same link is accepted twice at once', async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    const { token } = await invite(owner, id, bob.email, 'member', mailbox);
    const answers = await Promise.all([acceptInvitation(bob, token), acceptInvitation(bob, token)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(await membershipsOf(id, bob.userId)).toHaveLength(1);
  });

  it('refuses a person who is already an active member', async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    const { token } = await invite(owner, id, bob.email, 'admin', mailbox);
    await joinAs(id, bob.userId, 'member');
    const response = await acceptInvitation(bob, token);
    expect(response.status).toBe(409);
    expect(await membershipsOf(id, bob.userId)).toMatchObject([{ role: 'member' }]);
  });
});

describe('the invitation lifecycle', () => {
  it('resend replaces the link (the old one stops working) and the expiry', async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    const first = await invite(owner, id, bob.email, 'member', mailbox);
    const resent = await asBrowser(owner.browser, 'POST', INVITATION, { params: { id, invitation_id: first.id }, body: {}, now: later(60) });
    expect(resent.status).toBe(200);
    const body = await resent.json();
    expect(body).toMatchObject({ id: first.id, status: 'pending' });
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now() + getConfig().ttl.invitation * 1000);
    const second = invitationTokenFor(mailbox, bob.email);
    expect(second).not.toBe(first.token);
    expect((await acceptInvitation(bob, first.token)).status).toBe(404);
    expect((await acceptInvitation(bob, second)).status).toBe(200);
    // Accepted: neither resent nor revoked any more.
    expect((await asBrowser(owner.browser, 'POST', INVITATION, { params: { id, invitation_id: first.id }, body: {} })).status).toBe(409);
    expect((await asBrowser(owner.browser, 'DELETE', INVITATION, { params: { id, invitation_id: first.id } })).status).toBe(409);
  });

  it('expires: the link stops working, the list says expired, and a resend brings it back', async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    const { id: invitationId, token } = await invite(owner, id, bob.email, 'member', mailbox);
    const ttl = getConfig().ttl.invitation;
    const before = later(ttl - 30);
    const after = later(ttl + 30);
    expect((await listed(owner, id, 'status=pending', before)).map((i) => i.id)).toEqual([invitationId]);
    expect((await listed(owner, id, 'status=expired', before)).map((i) => i.id)).toEqual([]);

    const stale = await acceptInvitation(bob, token, { now: after });
    expect(stale.status).toBe(404);
    expect(await problemOf(stale)).toMatchObject({ detail: 'This invitation link is not valid or has expired.' });
    expect((await listed(owner, id, undefined, after)).map((i) => [i.id, i.status])).toEqual([[invitationId, 'expired']]);
    expect((await listed(owner, id, 'status=expired', after)).map((i) => i.id)).toEqual([invitationId]);
    expect((await listed(owner, id, 'status=pending', after)).map((i) => i.id)).toEqual([]);
    // An expired invitation is not pending: revoking it is refused, resending renews it.
    expect((await asBrowser(owner.browser, 'DELETE', INVITATION, { params: { id, invitation_id: invitationId }, now: after })).status).toBe(409);
    const resent = await asBrowser(owner.browser, 'POST', INVITATION, { params: { id, invitation_id: invitationId }, body: {}, now: after });
    expect(await resent.json()).toMatchObject({ status: 'pending' });
    expect((await acceptInvitation(bob, token, { now: after })).status).toBe(404);
    expect((await acceptInvitation(bob, invitationTokenFor(mailbox, bob.email), { now: after })).status).toBe(200);
  });

  it('allows a new invitation for an address whose invitation expired', async () => {
    const { owner, id } = await organizationOf();
    const email = `w.${randomUUID().slice(0, 8)}@example.test`;
    await invite(owner, id, email, 'member', mailbox);
    const after = later(getConfig().ttl.invitation + 30);
    const again = await asBrowser(owner.browser, 'POST', INVITATIONS, { params: { id }, body: { email, role: 'member' }, now: after });
    expect(again.status).toBe(201);
  });

  it('revokes a pending invitation: its link stops working', async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    const { id: invitationId, token } = await invite(owner, id, bob.email, 'member', mailbox);
    const revoked = await asBrowser(owner.browser, 'DELETE', INVITATION, { params: { id, invitation_id: invitationId } });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ revoked: true });
    expect((await acceptInvitation(bob, token)).status).toBe(404);
    expect((await listed(owner, id, 'status=revoked')).map((i) => i.id)).toEqual([invitationId]);
    expect((await asBrowser(owner.browser, 'DELETE', INVITATION, { params: { id, invitation_id: invitationId } })).status).toBe(409);
    expect((await asBrowser(owner.browser, 'POST', INVITATION, { params: { id, invitation_id: invitationId }, body: {} })).status).toBe(409);
    // Another organization's invitation id is simply not found.
    const other = await organizationOf();
    expect((await asBrowser(other.owner.browser, 'DELETE', INVITATION, { params: { id: other.id, invitation_id: invitationId } })).status).toBe(404);
  });

  it('re-invites a revoked member: accepting re-activates the same membership with the new role', async () => {
    const { owner, id } = await organizationOf();
    const bob = await person(mailbox, 'bob');
    const membershipId = await joinAs(id, bob.userId, 'admin');
    expect((await asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}/members/{member_id}', { params: { id, member_id: membershipId } })).status).toBe(
      200,
    );
    const { token } = await invite(owner, id, bob.email, 'member', mailbox);
    const accepted = await acceptInvitation(bob, token);
    expect(await accepted.json()).toEqual({ organization_id: id, membership_id: membershipId });
    expect(await membershipsOf(id, bob.userId)).toMatchObject([{ id: membershipId, role: 'member', status: 'active' }]);
    const added = await (await getDb()).select().from(outboxEvents).where(eq(outboxEvents.type, 'identity.organization.member.added'));
    expect(added.map((e) => e.payload)).toContainEqual({ organization_id: id, membership_id: membershipId, user_id: bob.userId });
  });
});

describe('bearer reads of invitations', () => {
  it("lists the bound organization's invitations for a member holding invitations.manage; other organizations are refused", async () => {
    const { owner, id } = await organizationOf();
    const other = await organizationOf();
    const bob = await person(mailbox, 'bob');
    await joinAs(id, bob.userId, 'admin');
    const { id: invitationId } = await invite(owner, id, `z.${randomUUID().slice(0, 8)}@example.test`, 'member', mailbox);
    const token = await organizationBearer(bob.userId, id);
    const response = await asBearer(token, '/api/v1/organizations/{id}/invitations', id);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      invitations: [{ id: invitationId, status: 'pending' }],
      authentication: 'oauth',
      scopes: ['identity.organization.read'],
    });
    expect((await asBearer(token, '/api/v1/organizations/{id}/invitations', other.id)).status).toBe(403);
  });
});
