/**
 * Groups and their members through the real pipeline: the delete guard, names, tenant scoping of
 * every nested id, a custom role that holds only groups.manage, and the bearer reads.
 */
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { call, operation, problemOf } from '@/tests/helpers/http';
import { mintAccessToken } from '@/tests/helpers/oauth';
import { customRole, joinWithCustomRole, setMembershipStatus } from '@/tests/helpers/organization-roles';
import { asBrowser, createOrganization, joinAs, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();

const groupsPath = '/api/organizations/{id}/groups';
const groupPath = '/api/organizations/{id}/groups/{group_id}';
const membersPath = '/api/organizations/{id}/groups/{group_id}/members';
const memberPath = '/api/organizations/{id}/groups/{group_id}/members/{membership_id}';

async function createGroup(who: Person, id: string, name: string): Promise<string> {
  const response = await asBrowser(who.browser, 'POST', groupsPath, { params: { id }, body: { name } });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const addMember = (who: Person, id: string, groupId: string, membershipId: string) =>
  asBrowser(who.browser, 'POST', membersPath, { params: { id, group_id: groupId }, body: { membership_id: membershipId } });

describe('groups', () => {
  it('creates, lists with member counts, renames and refuses duplicate names', async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    const bobMembership = await joinAs(id, bob.userId, 'member');
    const engineering = await createGroup(ada, id, 'Engineering');
    const sales = await createGroup(ada, id, 'Sales');
    const added = await addMember(ada, id, engineering, bobMembership);
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ id: bobMembership, user_id: bob.userId, email: bob.email });

    const list = await (await asBrowser(bob.browser, 'GET', groupsPath, { params: { id } })).json();
    expect(list).toMatchObject({ has_more: false, next_cursor: null });
    expect(list.groups.map((g: { id: string; member_count: number }) => [g.id, g.member_count])).toEqual([
      [sales, 0],
      [engineering, 1],
    ]);

    // Names are unique per organization, whatever the case; renaming to one's own name is fine.
    const duplicate = await asBrowser(ada.browser, 'POST', groupsPath, { params: { id }, body: { name: 'engineering' } });
    expect(duplicate.status).toBe(409);
    expect((await asBrowser(ada.browser, 'PATCH', groupPath, { params: { id, group_id: sales }, body: { name: 'ENGINEERING' } })).status).toBe(409);
    const renamed = await asBrowser(ada.browser, 'PATCH', groupPath, { params: { id, group_id: engineering }, body: { name: 'Platform' } });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: engineering, name: 'Platform', member_count: 1 });
    // Another organization may use the same name.
    const other = await createOrganization(ada, 'Other');
    await createGroup(ada, other, 'Platform');
    // A blank name is a field error.
    const blank = await asBrowser(ada.browser, 'POST', groupsPath, { params: { id }, body: { name: '   ' } });
    expect(blank.status).toBe(400);
    expect((await problemOf(blank)).errors).toEqual([expect.objectContaining({ path: 'body.name' })]);
  });

  it('deletes a group only when it is empty', async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    const bobMembership = await joinAs(id, bob.userId, 'member');
    const group = await createGroup(ada, id, 'Team');
    expect((await addMember(ada, id, group, bobMembership)).status).toBe(201);
    expect((await addMember(ada, id, group, bobMembership)).status).toBe(409);

    const refused = await asBrowser(ada.browser, 'DELETE', groupPath, { params: { id, group_id: group } });
    expect(refused.status).toBe(409);
    expect((await problemOf(refused)).code).toBe('conflict');
    const members = await (await asBrowser(ada.browser, 'GET', membersPath, { params: { id, group_id: group } })).json();
    expect(members.members).toEqual([expect.objectContaining({ id: bobMembership, user_id: bob.userId, email: bob.email })]);

    expect((await asBrowser(ada.browser, 'DELETE', memberPath, { params: { id, group_id: group, membership_id: bobMembership } })).status).toBe(200);
    // Removing again: not in the group.
    expect((await asBrowser(ada.browser, 'DELETE', memberPath, { params: { id, group_id: group, membership_id: bobMembership } })).status).toBe(404);
    const deleted = await asBrowser(ada.browser, 'DELETE', groupPath, { params: { id, group_id: group } });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: true });
    expect((await asBrowser(ada.browser, 'GET', membersPath, { params: { id, group_id: group } })).status).toBe(404);

    // Each change left its audit event in the organization's log, with the member's id and nothing more.
    const log = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.organizationId, id)).orderBy(asc(auditEvents.createdAt));
    expect(log.filter((row) => row.action.startsWith('group.')).map((row) => [row.action, row.subjectId, row.data])).toEqual([
      ['group.created', group, {}],
      ['group.member_added', group, { membership_id: bobMembership }],
      ['group.member_removed', group, { membership_id: bobMembership }],
      ['group.deleted', group, {}],
    ]);
  });

  it("answers another organization's group and membership ids with 404, and adds active members only", async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const carol = await person(mailbox, 'carol');
    const mine = await createOrganization(ada, 'Mine');
    const theirs = await createOrganization(ada, 'Theirs');
    const myGroup = await createGroup(ada, mine, 'Mine');
    const theirGroup = await createGroup(ada, theirs, 'Theirs');
    const theirMembership = await joinAs(theirs, bob.userId, 'member');

    // Ada belongs to both, yet a group of one is not found through the other.
    for (const [method, path, body] of [
      ['GET', membersPath, undefined],
      ['PATCH', groupPath, { name: 'Taken over' }],
      ['DELETE', groupPath, undefined],
      ['POST', membersPath, { membership_id: theirMembership }],
    ] as const) {
      const response = await asBrowser(ada.browser, method, path, { params: { id: mine, group_id: theirGroup }, body });
      expect([method, path, response.status]).toEqual([method, path, 404]);
    }
    // Another organization's membership cannot join my group.
    const foreign = await addMember(ada, mine, myGroup, theirMembership);
    expect(foreign.status).toBe(404);
    expect((await problemOf(foreign)).code).toBe('not_found');
    // Neither can a suspended member; an unknown id is as unknown.
    const suspended = await joinAs(mine, carol.userId, 'member');
    await setMembershipStatus(suspended, 'suspended');
    expect((await addMember(ada, mine, myGroup, suspended)).status).toBe(404);
    expect((await addMember(ada, mine, myGroup, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // Nothing changed in the other organization.
    const theirList = await (await asBrowser(ada.browser, 'GET', groupsPath, { params: { id: theirs } })).json();
    expect(theirList.groups).toEqual([expect.objectContaining({ id: theirGroup, name: 'Theirs', member_count: 0 })]);
  });

  it('lets a member whose custom role holds groups.manage manage groups, and nothing else', async () => {
    const ada = await person(mailbox, 'ada');
    const gina = await person(mailbox, 'gina');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    const role = await customRole(ada, id, 'Group keeper', ['groups.manage']);
    await joinWithCustomRole(id, gina.userId, role);
    const bobMembership = await joinAs(id, bob.userId, 'member');

    const group = await createGroup(gina, id, 'Gina’s team');
    expect((await addMember(gina, id, group, bobMembership)).status).toBe(201);
    expect((await asBrowser(gina.browser, 'PATCH', groupPath, { params: { id, group_id: group }, body: { name: 'Renamed' } })).status).toBe(200);

    const outside = [
      await asBrowser(gina.browser, 'PATCH', '/api/organizations/{id}', { params: { id }, body: { name: 'Mine now' } }),
      await asBrowser(gina.browser, 'POST', '/api/organizations/{id}/roles', { params: { id }, body: { name: 'More', permissions: ['groups.manage'] } }),
      await asBrowser(gina.browser, 'GET', '/api/organizations/{id}/delegated-admins', { params: { id } }),
    ];
    const refusals = await Promise.all(outside.map(async (r) => [r.status, (await problemOf(r)).permission]));
    expect(refusals).toEqual([
      [403, 'settings.manage'],
      [403, 'roles.manage'],
      [403, 'delegations.manage'],
    ]);
    // A plain member may read groups but not change them.
    expect((await asBrowser(bob.browser, 'GET', membersPath, { params: { id, group_id: group } })).status).toBe(200);
    const denied = await asBrowser(bob.browser, 'POST', groupsPath, { params: { id }, body: { name: 'Bob’s' } });
    expect(denied.status).toBe(403);
    expect(await problemOf(denied)).toMatchObject({ code: 'forbidden', permission: 'groups.manage' });
  });
});

describe('bearer group reads', () => {
  const bearer = (path: string, token: string, params: Record<string, string>) =>
    call(operation('GET', path), { params, headers: { authorization: `Bearer ${token}` } });

  async function organizationWithTeam() {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    const group = await createGroup(ada, id, 'Team');
    expect((await addMember(ada, id, group, await joinAs(id, bob.userId, 'member'))).status).toBe(201);
    return { ada, bob, id, group };
  }

  it('refuses a token that is not bound to an organization', async () => {
    const { ada, id, group } = await organizationWithTeam();
    const unbound = (await mintAccessToken(ada.userId, 'identity.organization.read identity.organization.members.read')).value;
    for (const [path, params] of [
      ['/api/v1/organizations/{id}/groups', { id }],
      ['/api/v1/organizations/{id}/groups/{group_id}/members', { id, group_id: group }],
    ] as const) {
      const response = await bearer(path, unbound, params);
      expect(response.status).toBe(403);
      expect(await problemOf(response)).toMatchObject({ code: 'forbidden', detail: 'This credential is not bound to an organization.' });
    }
  });

  it('answers a token bound to the organization, and refuses one bound to another', async () => {
    const { ada, bob, id, group } = await organizationWithTeam();
    const other = await createOrganization(ada, 'Other');
    const bound = (await mintAccessToken(ada.userId, 'identity.organization.read identity.organization.members.read', { organizationId: id })).value;
    const groups = await bearer('/api/v1/organizations/{id}/groups', bound, { id });
    expect(groups.status, await groups.clone().text()).toBe(200);
    expect(await groups.json()).toMatchObject({
      groups: [{ id: group, name: 'Team', member_count: 1 }],
      has_more: false,
      next_cursor: null,
      authentication: 'oauth',
      scopes: expect.arrayContaining(['identity.organization.read', 'identity.organization.members.read']),
    });
    const members = await bearer('/api/v1/organizations/{id}/groups/{group_id}/members', bound, { id, group_id: group });
    expect(members.status).toBe(200);
    expect(await members.json()).toMatchObject({ members: [{ user_id: bob.userId, email: bob.email }], authentication: 'oauth' });
    expect((await bearer('/api/v1/organizations/{id}/groups/{group_id}/members', bound, { id, group_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(
      404,
    );

    // Bound to this organization, asked about another (of which Ada is also an owner): refused.
    const elsewhere = await bearer('/api/v1/organizations/{id}/groups', bound, { id: other });
    expect(elsewhere.status).toBe(403);
    expect((await problemOf(elsewhere)).detail).toBe('This credential is bound to another organization.');
    // Group members need their own scope.
    const readOnly = (await mintAccessToken(ada.userId, 'identity.organization.read', { organizationId: id })).value;
    const noScope = await bearer('/api/v1/organizations/{id}/groups/{group_id}/members', readOnly, { id, group_id: group });
    expect(noScope.status).toBe(403);
    expect((await problemOf(noScope)).code).toBe('insufficient_scope');
  });
});
