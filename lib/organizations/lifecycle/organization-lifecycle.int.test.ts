/**
 * Leaving and deleting an organization through the real pipeline: who may, the last-owner refusal,
 * another organization's id (404), the typed confirmation, and what goes with each: groups, pending
 * invitations, OAuth grants bound to the organization (with their tokens), and the rows themselves.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, or } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents, groupMembers, groups, invitations, memberships, oidcGrantOrganizations, oidcModels, organizations, outboxEvents } from '@/lib/db/schema';
import { DrizzleAdapter } from '@/lib/oidc/adapter';
import { useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, createOrganization, invite, joinAs, membershipOf, ownedOrganization, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50' });

const leave = (who: Person, id: string) => asBrowser(who.browser, 'POST', '/api/organizations/{id}/leave', { params: { id }, body: {} });
const remove = (who: Person, id: string, confirmName: string) =>
  asBrowser(who.browser, 'DELETE', '/api/organizations/{id}', { params: { id }, body: { confirm_name: confirmName } });
const readOrganization = (who: Person, id: string) => asBrowser(who.browser, 'GET', '/api/organizations/{id}', { params: { id } });

/** An OAuth grant bound to the organization, with an access token issued under it (as the provider stores them). */
async function boundGrant(organizationId: string, userId: string) {
  const grantId = randomUUID();
  const tokenId = randomUUID();
  await new DrizzleAdapter('Grant').upsert(grantId, { kind: 'Grant', jti: grantId, accountId: userId, clientId: 'lifecycle-client' }, 3600);
  await new DrizzleAdapter('AccessToken').upsert(
    tokenId,
    { kind: 'AccessToken', jti: tokenId, grantId, accountId: userId, clientId: 'lifecycle-client' },
    3600,
  );
  await (await getDb()).insert(oidcGrantOrganizations).values({ grantId, organizationId, userId, createdAt: new Date() });
  return { grantId, tokenId };
}

const outboxOf = async (organizationId: string) =>
  (await (await getDb()).select({ id: outboxEvents.id }).from(outboxEvents).where(eq(outboxEvents.organizationId, organizationId))).length;
const grantRows = async (grantId: string) =>
  (await getDb())
    .select({ id: oidcModels.id })
    .from(oidcModels)
    .where(or(eq(oidcModels.grantId, grantId), eq(oidcModels.id, grantId)));

describe('leaving an organization', () => {
  it('ends the membership with its groups and bound grants, tells webhooks and the audit log, and shuts the door', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const membershipId = await joinAs(id, bob.userId, 'member');
    const group = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name: 'Crew' } });
    const groupId = ((await group.json()) as { id: string }).id;
    expect(
      (
        await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups/{group_id}/members', {
          params: { id, group_id: groupId },
          body: { membership_id: membershipId },
        })
      ).status,
    ).toBe(201);
    const grant = await boundGrant(id, bob.userId);
    const elsewhere = await createOrganization(bob, 'Bob Co');
    const kept = await boundGrant(elsewhere, bob.userId);

    const response = await leave(bob, id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ left: true, organization_id: id });

    const db = await getDb();
    expect((await membershipOf(id, bob.userId)).status).toBe('revoked');
    expect(await db.select().from(groupMembers).where(eq(groupMembers.groupId, groupId))).toEqual([]);
    expect(await grantRows(grant.grantId)).toEqual([]);
    // Only this organization's grants: the one bound to Bob's own organization stays.
    expect(await grantRows(kept.grantId)).toHaveLength(2);
    const [event] = await db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.organizationId, id), eq(outboxEvents.type, 'identity.organization.member.removed')));
    expect(event?.payload).toEqual({ organization_id: id, membership_id: membershipId, user_id: bob.userId });
    const [audited] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, id), eq(auditEvents.action, 'member.left')));
    expect(audited).toMatchObject({ actorId: bob.userId, subjectType: 'membership', subjectId: membershipId, outcome: 'success' });
    expect((await readOrganization(bob, id)).status).toBe(404);
    expect((await leave(bob, id)).status).toBe(404);
  });

  it('refuses the last active owner, clearly, and lets an owner go once another owner remains', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const refused = await leave(owner, id);
    expect(refused.status).toBe(409);
    expect(await problemOf(refused)).toMatchObject({
      code: 'conflict',
      detail: expect.stringMatching(/last active owner.*make another member an owner first/),
    });
    expect((await membershipOf(id, owner.userId)).status).toBe('active');

    // A suspended owner does not count: they cannot act for the organization.
    const sus = await person(mailbox, 'sus');
    const susMembership = await joinAs(id, sus.userId, 'owner');
    await (await getDb()).update(memberships).set({ status: 'suspended' }).where(eq(memberships.id, susMembership));
    expect((await leave(owner, id)).status).toBe(409);

    const cy = await person(mailbox, 'cy');
    await joinAs(id, cy.userId, 'owner');
    expect((await leave(owner, id)).status).toBe(200);
    expect((await leave(cy, id)).status).toBe(409);
  });

  it('leaves a suspended membership to the organization: 404, and the membership stays suspended', async () => {
    const { id } = await ownedOrganization(mailbox);
    const dee = await person(mailbox, 'dee');
    const membershipId = await joinAs(id, dee.userId, 'member');
    await (await getDb()).update(memberships).set({ status: 'suspended' }).where(eq(memberships.id, membershipId));
    const response = await leave(dee, id);
    expect(response.status).toBe(404);
    expect((await membershipOf(id, dee.userId)).status).toBe('suspended');
  });

  it("answers another organization's id with 404 and changes nothing there", async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const outsider = await ownedOrganization(mailbox, 'eve');
    const response = await leave(outsider.owner, id);
    expect(response.status).toBe(404);
    expect((await problemOf(response)).code).toBe('not_found');
    expect((await membershipOf(id, owner.userId)).status).toBe('active');
  });
});

describe('deleting an organization', () => {
  it('is for an owner naming it: admins are refused, a wrong name is a field error', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const admin = await person(mailbox, 'admin');
    await joinAs(id, admin.userId, 'admin');
    const byAdmin = await remove(admin, id, 'Acme');
    expect(byAdmin.status).toBe(403);
    expect((await problemOf(byAdmin)).code).toBe('forbidden');

    const wrong = await remove(owner, id, 'acme');
    expect(wrong.status).toBe(400);
    expect(await problemOf(wrong)).toMatchObject({ code: 'invalid_request', errors: [{ path: 'body.confirm_name' }] });
    const missing = await asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}', { params: { id }, body: {} });
    expect(missing.status).toBe(400);
    expect((await readOrganization(owner, id)).status).toBe(200);
  });

  it("answers another organization's id with 404, even named right, and deletes nothing", async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const outsider = await ownedOrganization(mailbox, 'eve');
    const response = await remove(outsider.owner, id, 'Acme');
    expect(response.status).toBe(404);
    expect((await readOrganization(owner, id)).status).toBe(200);
  });

  it('takes memberships, invitations and bound grants with it, keeps the audit trail, and leaves other organizations alone', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    await joinAs(id, bob.userId, 'member');
    const { token } = await invite(owner, id, `invitee.${randomUUID().slice(0, 8)}@example.test`, 'member', mailbox);
    const bobGrant = await boundGrant(id, bob.userId);
    const ownerGrant = await boundGrant(id, owner.userId);
    const other = await createOrganization(owner, 'Other');
    const otherGrant = await boundGrant(other, owner.userId);

    const eventsBefore = await outboxOf(id);
    const response = await remove(owner, id, 'Acme');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: true, members_removed: 2, invitations_revoked: 1, grants_revoked: 2 });

    const db = await getDb();
    expect(await db.select().from(organizations).where(eq(organizations.id, id))).toEqual([]);
    expect(await db.select().from(memberships).where(eq(memberships.organizationId, id))).toEqual([]);
    expect(await db.select().from(invitations).where(eq(invitations.organizationId, id))).toEqual([]);
    expect(await db.select().from(groups).where(eq(groups.organizationId, id))).toEqual([]);
    expect(await grantRows(bobGrant.grantId)).toEqual([]);
    expect(await grantRows(ownerGrant.grantId)).toEqual([]);
    expect(await grantRows(otherGrant.grantId)).toHaveLength(2);
    const preview = await asBrowser(null, 'POST', '/api/organizations/invitations/preview', { body: { token } });
    expect(preview.status).toBe(404);
    for (const who of [owner, bob]) expect((await readOrganization(who, id)).status).toBe(404);
    expect((await readOrganization(owner, other)).status).toBe(200);

    // The trail stays (append-only), with what went.
    const [audited] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, id), eq(auditEvents.action, 'organization.deleted')));
    expect(audited).toMatchObject({
      actorId: owner.userId,
      data: { name: 'Acme', slug: expect.any(String), members: 2, invitations: 1, grants_revoked: 2 },
    });
    // No webhook event: the catalogue has no organization.deleted.
    expect(await outboxOf(id)).toBe(eventsBefore);
  });
});
