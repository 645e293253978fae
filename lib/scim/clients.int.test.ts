/**
 * What real provisioning clients send (STACK-NOTES: Entra ID and Okta), one request shape each, through
 * the real pipeline: capitalised operations, booleans as strings, `emails[type eq "work"].value`
 * paths, pathless replace with a partial object and with several attributes, a single value added to a
 * multi-valued attribute, deactivation and re-activation by PUT, and the bounds on one request.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { directory, patchOp, provision, scimError, userBody, type Directory } from '@/tests/helpers/scim';

const mailbox = useMailbox();
const address = (label: string) => `${label}.${randomUUID().slice(0, 8)}@clients.test`;

interface UserBody {
  id: string;
  userName: string;
  displayName?: string;
  active: boolean;
  name?: { givenName?: string; familyName?: string };
  emails?: { value: string; type?: string; primary: boolean }[];
}

const patchUser = async (dir: Directory, id: string, ...ops: Record<string, unknown>[]) => {
  const response = await dir.scim('PATCH', '/scim/v2/Users/{id}', { params: { id }, body: patchOp(...ops) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as UserBody;
};

describe('Entra ID', () => {
  it('provisions with "True", replaces the work address through a value-filter path, and deactivates with "False"', async () => {
    const dir = await directory(mailbox);
    const created = await dir.scim('POST', '/scim/v2/Users', { body: userBody(address('entra'), { active: 'True' }) });
    const user = (await created.json()) as UserBody;
    expect(user.active).toBe(true);
    const work = address('new-work');
    const changed = await patchUser(dir, user.id, { op: 'Replace', path: 'emails[type eq "work"].value', value: work });
    expect(changed.emails).toEqual([{ value: work, type: 'work', primary: true }]);
    // No home address yet: the filter's attribute makes a new one.
    const home = address('home');
    const added = await patchUser(dir, user.id, { op: 'Add', path: 'emails[type eq "home"].value', value: home });
    expect(added.emails?.map((e) => e.type)).toEqual(['work', 'home']);
    const renamed = await patchUser(dir, user.id, { op: 'Replace', path: 'name.givenName', value: 'Grace' }, { op: 'Replace', path: 'active', value: 'False' });
    expect(renamed).toMatchObject({ name: { givenName: 'Grace' }, active: false });
  });

  it('replaces several attributes pathless in one operation, keys as paths included', async () => {
    const dir = await directory(mailbox);
    const user = await provision(dir, address('multi'));
    const changed = await patchUser(dir, user.id, { op: 'replace', value: { displayName: 'Ada L.', 'name.familyName': 'Byron', active: false } });
    expect(changed).toMatchObject({ displayName: 'Ada L.', name: { givenName: 'Ada', familyName: 'Byron' }, active: false });
  });

  it('adds a single member given as an object, not an array', async () => {
    const dir = await directory(mailbox);
    const user = await provision(dir, address('single'));
    const group = (await (await dir.scim('POST', '/scim/v2/Groups', { body: { displayName: 'Single' } })).json()) as { id: string };
    const response = await dir.scim('PATCH', '/scim/v2/Groups/{id}', {
      params: { id: group.id },
      body: patchOp({ op: 'Add', path: 'members', value: { value: user.id } }),
    });
    expect(((await response.json()) as { members: { value: string }[] }).members.map((m) => m.value)).toEqual([user.id]);
  });
});

describe('Okta', () => {
  it('deactivates and re-activates by PUT of the whole user', async () => {
    const dir = await directory(mailbox);
    const user = await provision(dir, address('okta'));
    const put = async (active: boolean) =>
      (await (await dir.scim('PUT', '/scim/v2/Users/{id}', { params: { id: user.id }, body: userBody(user.userName, { active }) })).json()) as UserBody;
    expect((await put(false)).active).toBe(false);
    expect((await put(true)).active).toBe(true);
  });

  it('finds a user by userName before creating it, and gets 409 for a duplicate and 400 for a filter without an operator', async () => {
    const dir = await directory(mailbox);
    const userName = address('lookup');
    const before = await dir.scim('GET', '/scim/v2/Users', { query: `filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100` });
    expect(((await before.json()) as { totalResults: number }).totalResults).toBe(0);
    await provision(dir, userName);
    expect((await dir.scim('POST', '/scim/v2/Users', { body: userBody(userName) })).status).toBe(409);
    const bare = await dir.scim('GET', '/scim/v2/Users', { query: `filter=${encodeURIComponent(userName)}` });
    expect(bare.status).toBe(400);
    expect((await scimError(bare)).scimType).toBe('invalidFilter');
  });
});

describe('bounds on one request', () => {
  it('refuses more than 100 operations, more than 1,000 members, and an unknown operation', async () => {
    const dir = await directory(mailbox);
    const user = await provision(dir, address('bounds'));
    const many = Array.from({ length: 101 }, () => ({ op: 'replace', path: 'displayName', value: 'x' }));
    const tooMany = await dir.scim('PATCH', '/scim/v2/Users/{id}', { params: { id: user.id }, body: patchOp(...many) });
    expect((await scimError(tooMany)).scimType).toBe('tooMany');
    const members = Array.from({ length: 1001 }, () => ({ value: randomUUID() }));
    const tooManyMembers = await dir.scim('POST', '/scim/v2/Groups', { body: { displayName: 'Huge', members } });
    expect((await scimError(tooManyMembers)).scimType).toBe('tooMany');
    const unknown = await dir.scim('PATCH', '/scim/v2/Users/{id}', { params: { id: user.id }, body: patchOp({ op: 'merge', value: {} }) });
    expect((await scimError(unknown)).scimType).toBe('invalidSyntax');
    const noTarget = await dir.scim('PATCH', '/scim/v2/Users/{id}', { params: { id: user.id }, body: patchOp({ op: 'remove' }) });
    expect((await scimError(noTarget)).scimType).toBe('noTarget');
  });
});
