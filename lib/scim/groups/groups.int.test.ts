/**
 * SCIM Groups through the real pipeline: the organization's groups, members only from the same
 * directory, PATCH as Entra and Microsoft's validator send it, externalId fixed once set, members an
 * admin added in the console left alone by a directory's replacement.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { asBrowser, joinAs, person } from '@/tests/helpers/organizations';
import { directory, patchOp, provision, scimError, type Directory } from '@/tests/helpers/scim';

const mailbox = useMailbox();
const address = (label: string) => `${label}.${randomUUID().slice(0, 8)}@groups.test`;

interface GroupBody {
  id: string;
  displayName: string;
  externalId?: string;
  members: { value: string; display: string }[];
  meta: { version: string };
}

async function createGroup(dir: Directory, body: Record<string, unknown>): Promise<GroupBody> {
  const response = await dir.scim('POST', '/scim/v2/Groups', { body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], ...body } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as GroupBody;
}

const patch = (dir: Directory, id: string, ...ops: Record<string, unknown>[]) =>
  dir.scim('PATCH', '/scim/v2/Groups/{id}', { params: { id }, body: patchOp(...ops) });
const read = async (dir: Directory, id: string) => (await (await dir.scim('GET', '/scim/v2/Groups/{id}', { params: { id } })).json()) as GroupBody;
const memberIds = (group: GroupBody) => group.members.map((m) => m.value).sort();

describe('SCIM groups', () => {
  it('creates a group with members, reshapes it by PATCH (Entra ops, value filters) and PUT, and deletes it with its members', async () => {
    const dir = await directory(mailbox);
    const [a, b, c] = [await provision(dir, address('a')), await provision(dir, address('b')), await provision(dir, address('c'))];
    const group = await createGroup(dir, { displayName: 'Engineering', externalId: 'eng-1', members: [{ value: a.id }] });
    expect(memberIds(group)).toEqual([a.id]);
    // The organization's group: the console lists it.
    const listed = await asBrowser(dir.owner.browser, 'GET', '/api/organizations/{id}/groups', { params: { id: dir.id } });
    expect(((await listed.json()) as { groups: { id: string }[] }).groups.map((g) => g.id)).toContain(group.id);

    expect((await patch(dir, group.id, { op: 'Add', path: 'members', value: [{ value: b.id }, { value: c.id }] })).status).toBe(200);
    expect((await patch(dir, group.id, { op: 'Remove', path: `members[value eq "${a.id}"]` })).status).toBe(200);
    expect(memberIds(await read(dir, group.id))).toEqual([b.id, c.id].sort());
    expect((await patch(dir, group.id, { op: 'remove', path: 'members', value: [{ value: b.id }] })).status).toBe(200);
    expect(memberIds(await read(dir, group.id))).toEqual([c.id]);
    expect((await patch(dir, group.id, { op: 'replace', value: { displayName: 'Platform' } })).status).toBe(200);
    const replaced = await dir.scim('PUT', '/scim/v2/Groups/{id}', {
      params: { id: group.id },
      body: { displayName: 'Platform', externalId: 'eng-1', members: [{ value: a.id }, { value: b.id }] },
    });
    expect(replaced.status).toBe(200);
    expect(memberIds((await replaced.json()) as GroupBody)).toEqual([a.id, b.id].sort());
    expect((await patch(dir, group.id, { op: 'remove', path: 'members' })).status).toBe(200);
    expect((await read(dir, group.id)).members).toEqual([]);
    await patch(dir, group.id, { op: 'add', path: 'members', value: [{ value: a.id }] });
    expect((await dir.scim('DELETE', '/scim/v2/Groups/{id}', { params: { id: group.id } })).status).toBe(204);
    expect((await dir.scim('GET', '/scim/v2/Groups/{id}', { params: { id: group.id } })).status).toBe(404);
  });

  it('refuses members that are not users of this directory, and a changed externalId', async () => {
    const dir = await directory(mailbox);
    const other = await directory(mailbox, 'bob');
    const stranger = await provision(other, address('stranger'));
    const refused = await dir.scim('POST', '/scim/v2/Groups', { body: { displayName: 'Sneaky', members: [{ value: stranger.id }] } });
    expect(refused.status).toBe(400);
    expect((await scimError(refused)).scimType).toBe('invalidValue');
    const group = await createGroup(dir, { displayName: 'Fixed', externalId: 'fixed-1' });
    const changed = await patch(dir, group.id, { op: 'replace', path: 'externalId', value: 'other' });
    expect(changed.status).toBe(400);
    expect((await scimError(changed)).scimType).toBe('mutability');
    const foreign = await patch(dir, group.id, { op: 'add', path: 'members', value: [{ value: stranger.id }] });
    expect(foreign.status).toBe(400);
    // Another organization's group is not found.
    expect((await other.scim('GET', '/scim/v2/Groups/{id}', { params: { id: group.id } })).status).toBe(404);
    expect((await other.scim('DELETE', '/scim/v2/Groups/{id}', { params: { id: group.id } })).status).toBe(404);
  });

  it("keeps members an admin added in the console when a directory replaces the group's members", async () => {
    const dir = await directory(mailbox);
    const user = await provision(dir, address('scim'));
    const group = await createGroup(dir, { displayName: 'Mixed' });
    const colleague = await person(mailbox, 'colleague');
    const membershipId = await joinAs(dir.id, colleague.userId, 'member');
    const added = await asBrowser(dir.owner.browser, 'POST', '/api/organizations/{id}/groups/{group_id}/members', {
      params: { id: dir.id, group_id: group.id },
      body: { membership_id: membershipId },
    });
    expect(added.status).toBe(201);
    await dir.scim('PUT', '/scim/v2/Groups/{id}', { params: { id: group.id }, body: { displayName: 'Mixed', members: [{ value: user.id }] } });
    const members = await asBrowser(dir.owner.browser, 'GET', '/api/organizations/{id}/groups/{group_id}/members', {
      params: { id: dir.id, group_id: group.id },
    });
    expect(((await members.json()) as { members: { id: string }[] }).members.map((m) => m.id)).toContain(membershipId);
    expect(memberIds(await read(dir, group.id))).toEqual([user.id]);
  });

  it('filters by displayName and externalId, and answers 409 uniqueness for a name in use', async () => {
    const dir = await directory(mailbox);
    await createGroup(dir, { displayName: 'Sales', externalId: 'sales-ext' });
    const byName = (await (await dir.scim('GET', '/scim/v2/Groups', { query: `filter=${encodeURIComponent('displayName eq "sales"')}` })).json()) as {
      totalResults: number;
    };
    expect(byName.totalResults).toBe(1);
    const byExternal = (await (await dir.scim('GET', '/scim/v2/Groups', { query: `filter=${encodeURIComponent('externalId eq "sales-ext"')}` })).json()) as {
      Resources: GroupBody[];
    };
    expect(byExternal.Resources[0]!.displayName).toBe('Sales');
    const duplicate = await dir.scim('POST', '/scim/v2/Groups', { body: { displayName: 'SALES' } });
    expect(duplicate.status).toBe(409);
  });
});
