import { expect, test, type APIRequestContext, type Page } from './support/test';
import { expectAccessible } from './support/axe';
import { createOrganizationInConsole, screenshots, signedInWithPassword, uniqueEmail } from './support/journeys';

/**
 * Directory sync end to end: an owner issues a SCIM token in the console; a directory (here, plain
 * HTTP requests as Entra ID and Okta send them) provisions two people, deactivates one, builds a group
 * and reshapes it by PATCH, and meets the ETag rules; the console then shows what the directory
 * manages: its members (one suspended) and its group.
 */

const section = (page: Page, heading: string) => page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true, level: 2 }) }).last();
const nav = (page: Page) => page.getByRole('navigation', { name: /sections$/ });

async function open(page: Page, label: string) {
  await nav(page).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { name: label, level: 2, exact: true })).toBeVisible();
}

/** A SCIM client holding the token. */
function directory(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' };
  return {
    get: (path: string, extra: Record<string, string> = {}) => request.get(`/scim/v2${path}`, { headers: { ...headers, ...extra } }),
    post: (path: string, data: unknown) => request.post(`/scim/v2${path}`, { headers, data }),
    patch: (path: string, data: unknown, extra: Record<string, string> = {}) => request.patch(`/scim/v2${path}`, { headers: { ...headers, ...extra }, data }),
    put: (path: string, data: unknown, extra: Record<string, string> = {}) => request.put(`/scim/v2${path}`, { headers: { ...headers, ...extra }, data }),
  };
}

const patchOp = (...Operations: Record<string, unknown>[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });

test('a directory provisions people and a group over SCIM, and the console shows what it manages', async ({ page }) => {
  test.setTimeout(120_000);
  const ownerEmail = uniqueEmail('directory.owner');
  const suffix = Date.now().toString(36);
  const [alice, bob] = [`alice.${suffix}@directory-co.test`, `bob.${suffix}@directory-co.test`];
  let token = '';

  await test.step('the owner creates the organization and issues a SCIM token in Directory sync', async () => {
    await signedInWithPassword(page, ownerEmail);
    await createOrganizationInConsole(page, 'Directory Co');
    await open(page, 'Directory sync');
    const form = page.getByRole('form', { name: 'Issue a SCIM token' });
    await form.getByLabel('Token name').fill('Entra ID production');
    await form.getByRole('button', { name: 'Issue token' }).click();
    token = await page.getByLabel('SCIM token', { exact: true }).inputValue();
    expect(token).toMatch(/^scim_/);
    await expect(section(page, 'Directory sync').getByText('/scim/v2')).toBeVisible();
    await screenshots(page, 'console-directory-sync');
    await expectAccessible(page, 'console: directory sync');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await expect(section(page, 'Directory sync').getByRole('listitem').filter({ hasText: 'Entra ID production' })).toContainText('active');
  });

  const scim = directory(page.request, token);
  let groupId = '';

  await test.step('the directory provisions two people and deactivates one', async () => {
    const ids: string[] = [];
    for (const userName of [alice, bob]) {
      const created = await scim.post('/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName,
        name: { givenName: userName.split('.')[0], familyName: 'Example' },
        emails: [{ value: userName, type: 'work', primary: true }],
        active: true,
      });
      expect(created.status()).toBe(201);
      ids.push(((await created.json()) as { id: string }).id);
    }
    // Okta deactivates with a pathless replace.
    const deactivated = await scim.patch(`/Users/${ids[1]}`, patchOp({ op: 'replace', value: { active: false } }));
    expect(((await deactivated.json()) as { active: boolean }).active).toBe(false);

    const group = await scim.post('/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Engineering',
      members: [{ value: ids[0] }],
    });
    expect(group.status()).toBe(201);
    const created = (await group.json()) as { id: string; meta: { version: string } };
    groupId = created.id;
    // Entra ID's capitalised operations: add the second person, rename, then take the first one out.
    const reshaped = await scim.patch(
      `/Groups/${groupId}`,
      patchOp(
        { op: 'Add', path: 'members', value: [{ value: ids[1] }] },
        { op: 'Replace', path: 'displayName', value: 'Platform' },
        { op: 'Remove', path: `members[value eq "${ids[0]}"]` },
      ),
    );
    expect(reshaped.status()).toBe(200);
    const current = (await reshaped.json()) as { displayName: string; members: { value: string }[]; meta: { version: string } };
    expect(current.displayName).toBe('Platform');
    expect(current.members.map((m) => m.value)).toEqual([ids[1]]);
    // A write naming the old version is refused; a read naming the current one is not modified.
    const stale = await scim.put(`/Groups/${groupId}`, { displayName: 'Stale' }, { 'if-match': created.meta.version });
    expect(stale.status()).toBe(412);
    expect(((await stale.json()) as { status: string }).status).toBe('412');
    expect((await scim.get(`/Groups/${groupId}`, { 'if-none-match': current.meta.version })).status()).toBe(304);
  });

  await test.step('the console shows the directory’s members (one suspended) and its group', async () => {
    await page.reload();
    await open(page, 'Members');
    const members = section(page, 'Members');
    const aliceCard = members.getByRole('listitem').filter({ hasText: alice });
    const bobCard = members.getByRole('listitem').filter({ hasText: bob });
    await expect(aliceCard).toContainText('Directory');
    await expect(aliceCard).toContainText('Active');
    await expect(bobCard).toContainText('Directory');
    await expect(bobCard).toContainText('Suspended');
    await screenshots(page, 'console-directory-members');
    await open(page, 'Groups');
    const group = section(page, 'Groups').getByRole('listitem').filter({ hasText: 'Platform' });
    await expect(group).toContainText('Directory');
    await expect(group).toContainText('1 member');
    await expectAccessible(page, 'console: directory groups');
  });
});
