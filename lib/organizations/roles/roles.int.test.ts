/**
 * Custom roles through the real pipeline: the list (built-ins first), nobody makes a role holding
 * more than they hold, names, and the delete guard (memberships and pending invitations).
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { invitations, memberships } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { customRole, joinWithCustomRole, setMembershipStatus } from '@/tests/helpers/organization-roles';
import { asBrowser, createOrganization, joinAs, person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();

const rolesPath = '/api/organizations/{id}/roles';
const rolePath = '/api/organizations/{id}/roles/{role_id}';

describe('custom roles', () => {
  it('lists the built-in roles first, then the custom ones, newest first', async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    await joinAs(id, bob.userId, 'member');
    const auditor = await customRole(ada, id, 'Auditor', ['audit.read']);
    const keeper = await customRole(ada, id, 'Group keeper', ['groups.manage', 'read']);

    const organization = await (await asBrowser(ada.browser, 'GET', '/api/organizations/{id}', { params: { id } })).json();
    const list = await asBrowser(bob.browser, 'GET', rolesPath, { params: { id } });
    expect(list.status).toBe(200);
    const body = await list.json();
    expect(body).toMatchObject({ has_more: false, next_cursor: null });
    expect(body.roles.map((r: { id: string; builtin: boolean }) => [r.id, r.builtin])).toEqual([
      ['owner', true],
      ['admin', true],
      ['member', true],
      [keeper, false],
      [auditor, false],
    ]);
    expect(body.roles[0]).toMatchObject({
      name: 'owner',
      created_at: organization.created_at,
      permissions: expect.arrayContaining(['members.manage', 'delegations.manage']),
    });
    expect(body.roles[2].permissions).toEqual(['read', 'audit.read']);
    // Permissions come back once each, in catalogue order.
    expect(body.roles[3]).toMatchObject({ name: 'Group keeper', description: null, permissions: ['read', 'groups.manage'] });
  });

  it('refuses a role holding a permission its creator does not hold, naming it', async () => {
    const ada = await person(mailbox, 'ada');
    const rita = await person(mailbox, 'rita');
    const id = await createOrganization(ada);
    const roleAdmin = await customRole(ada, id, 'Role admin', ['roles.manage', 'groups.manage']);
    await joinWithCustomRole(id, rita.userId, roleAdmin);

    const beyond = await asBrowser(rita.browser, 'POST', rolesPath, {
      params: { id },
      body: { name: 'Escalate', permissions: ['groups.manage', 'members.manage'] },
    });
    expect(beyond.status).toBe(403);
    expect(await problemOf(beyond)).toMatchObject({ code: 'forbidden', permission: 'members.manage' });

    const within = await asBrowser(rita.browser, 'POST', rolesPath, {
      params: { id },
      body: { name: 'Groups only', description: 'Keeps the groups', permissions: ['groups.manage'] },
    });
    expect(within.status).toBe(201);
    const created = await within.json();
    expect(created).toMatchObject({ name: 'Groups only', description: 'Keeps the groups', builtin: false, permissions: ['groups.manage'] });

    // The same rule on a change, including a change of her own role.
    for (const roleId of [created.id, roleAdmin]) {
      const widened = await asBrowser(rita.browser, 'PATCH', rolePath, {
        params: { id, role_id: roleId },
        body: { permissions: ['roles.manage', 'settings.manage'] },
      });
      expect(widened.status).toBe(403);
      expect((await problemOf(widened)).permission).toBe('settings.manage');
    }
    const renamed = await asBrowser(rita.browser, 'PATCH', rolePath, {
      params: { id, role_id: created.id },
      body: { name: 'Group keepers', description: null },
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: created.id, name: 'Group keepers', description: null, permissions: ['groups.manage'] });
    // Her permissions did not change through any of it.
    const me = await (await asBrowser(rita.browser, 'GET', '/api/organizations/{id}', { params: { id } })).json();
    expect(me.membership).toMatchObject({ role: roleAdmin, permissions: ['read', 'groups.manage', 'roles.manage'] });
  });

  it('validates names and permissions', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    await customRole(ada, id, 'Auditor', ['audit.read']);
    const create = (body: unknown) => asBrowser(ada.browser, 'POST', rolesPath, { params: { id }, body });
    const answers = [];
    for (const body of [
      { name: 'Admin', permissions: ['read'] },
      { name: 'auditor', permissions: ['read'] },
      { name: 'Empty', permissions: [] },
      { name: 'Unknown', permissions: ['everything'] },
      { name: '', permissions: ['read'] },
    ]) {
      const response = await create(body);
      answers.push([response.status, (await problemOf(response)).code]);
    }
    expect(answers).toEqual([
      [409, 'conflict'],
      [409, 'conflict'],
      [400, 'invalid_request'],
      [400, 'invalid_request'],
      [400, 'invalid_request'],
    ]);
    // An empty change, a built-in role and an unknown id.
    const [someRole] = (await (await asBrowser(ada.browser, 'GET', rolesPath, { params: { id } })).json()).roles.filter(
      (r: { builtin: boolean }) => !r.builtin,
    );
    expect((await asBrowser(ada.browser, 'PATCH', rolePath, { params: { id, role_id: someRole.id }, body: {} })).status).toBe(400);
    expect((await asBrowser(ada.browser, 'PATCH', rolePath, { params: { id, role_id: 'admin' }, body: { name: 'Boss' } })).status).toBe(409);
    expect((await asBrowser(ada.browser, 'DELETE', rolePath, { params: { id, role_id: 'owner' } })).status).toBe(409);
    expect((await asBrowser(ada.browser, 'DELETE', rolePath, { params: { id, role_id: randomUUID() } })).status).toBe(404);
    expect((await asBrowser(ada.browser, 'DELETE', rolePath, { params: { id, role_id: 'no-such-role' } })).status).toBe(404);
  });

  it("answers another organization's role id with 404", async () => {
    const ada = await person(mailbox, 'ada');
    const mine = await createOrganization(ada, 'Mine');
    const theirs = await createOrganization(ada, 'Theirs');
    const theirRole = await customRole(ada, theirs, 'Auditor', ['audit.read']);
    expect((await asBrowser(ada.browser, 'PATCH', rolePath, { params: { id: mine, role_id: theirRole }, body: { name: 'Mine' } })).status).toBe(404);
    expect((await asBrowser(ada.browser, 'DELETE', rolePath, { params: { id: mine, role_id: theirRole } })).status).toBe(404);
    const theirList = await (await asBrowser(ada.browser, 'GET', rolesPath, { params: { id: theirs } })).json();
    expect(theirList.roles.at(-1)).toMatchObject({ id: theirRole, name: 'Auditor' });
  });

  it('deletes a role only when no membership (other than revoked) and no pending invitation uses it', async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    const role = await customRole(ada, id, 'Auditor', ['audit.read']);
    const remove = () => asBrowser(ada.browser, 'DELETE', rolePath, { params: { id, role_id: role } });

    // A member holds it (suspended counts: they may come back).
    const bobMembership = await joinWithCustomRole(id, bob.userId, role);
    await setMembershipStatus(bobMembership, 'suspended');
    const used = await remove();
    expect(used.status).toBe(409);
    expect((await problemOf(used)).code).toBe('conflict');

    // A pending invitation names it (test data: the invitation API has its own tests).
    await setMembershipStatus(bobMembership, 'revoked');
    const db = await getDb();
    const now = new Date();
    const invitationId = randomUUID();
    await db.insert(invitations).values({
      id: invitationId,
      organizationId: id,
      email: 'invited@example.test',
      role: 'custom',
      customRoleId: role,
      tokenHash: randomUUID(),
      status: 'pending',
      expiresAt: new Date(now.getTime() - 1000), // expired, yet it can be resent
      createdAt: now,
      updatedAt: now,
    });
    expect((await remove()).status).toBe(409);

    await db.update(invitations).set({ status: 'revoked' }).where(eq(invitations.id, invitationId));
    const deleted = await remove();
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: true });
    const list = await (await asBrowser(ada.browser, 'GET', rolesPath, { params: { id } })).json();
    expect(list.roles.map((r: { id: string }) => r.id)).toEqual(['owner', 'admin', 'member']);
    // History keeps `custom` without the reference.
    const [revoked] = await db.select().from(memberships).where(eq(memberships.id, bobMembership));
    expect(revoked).toMatchObject({ role: 'custom', customRoleId: null, status: 'revoked' });
    expect((await remove()).status).toBe(404);
  });
});
