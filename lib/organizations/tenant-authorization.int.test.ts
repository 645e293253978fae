/**
 * The pipeline's tenant authorization on real organizations (the generated matrix over every tenant
 * operation is tests/contract/tenant-isolation.contract.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { problemOf } from '@/tests/helpers/http';
import { useMailbox } from '@/tests/helpers/accounts';
import { asBrowser, createOrganization, joinAs, person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();

describe('tenant authorization', () => {
  it('creates an organization whose creator is its owner, listed for the session', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada, 'Acme Widgets');
    const read = await asBrowser(ada.browser, 'GET', '/api/organizations/{id}', { params: { id } });
    expect(read.status).toBe(200);
    const body = await read.json();
    expect(body).toMatchObject({ id, name: 'Acme Widgets', slug: 'acme-widgets', membership: { role: 'owner' } });
    expect(body.membership.permissions).toContain('members.manage');
    for (const path of ['/api/organizations', '/api/auth/organizations']) {
      const list = await (await asBrowser(ada.browser, 'GET', path)).json();
      expect(list).toMatchObject({ organizations: [{ id, name: 'Acme Widgets', slug: 'acme-widgets', role: 'owner' }], has_more: false, next_cursor: null });
    }
  });

  it('answers a non-member and an unknown or malformed id with the same 404', async () => {
    const ada = await person(mailbox, 'ada');
    const eve = await person(mailbox, 'eve');
    const id = await createOrganization(ada);
    const answers = [];
    for (const target of [id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await asBrowser(eve.browser, 'GET', '/api/organizations/{id}', { params: { id: target } });
      answers.push({ status: response.status, code: (await problemOf(response)).code });
    }
    expect(answers).toEqual(Array(3).fill({ status: 404, code: 'not_found' }));
    // A refused mutation by a non-member changes nothing and says nothing about a step-up.
    const patch = await asBrowser(eve.browser, 'PATCH', '/api/organizations/{id}', { params: { id }, body: { name: 'Mine' } });
    expect(patch.status).toBe(404);
  });

  it('refuses a member without the permission with 403 forbidden naming it', async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    await joinAs(id, bob.userId, 'member');
    expect((await asBrowser(bob.browser, 'GET', '/api/organizations/{id}', { params: { id } })).status).toBe(200);
    const patch = await asBrowser(bob.browser, 'PATCH', '/api/organizations/{id}', { params: { id }, body: { name: 'Mine' } });
    expect(patch.status).toBe(403);
    expect(await problemOf(patch)).toMatchObject({ code: 'forbidden', permission: 'settings.manage' });
  });

  it('takes a recent step-up for mutations, whose window the organization may shorten', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const later = (seconds: number) => () => new Date(Date.now() + seconds * 1000);
    const rename = (name: string, seconds: number) =>
      asBrowser(ada.browser, 'PATCH', '/api/organizations/{id}', { params: { id }, body: { name }, now: later(seconds) });
    expect((await rename('Acme 2', 60)).status).toBe(200);
    const stale = await rename('Acme 3', 11 * 60);
    expect(stale.status).toBe(403);
    // A password-only account steps up with its password.
    expect(await problemOf(stale)).toMatchObject({ code: 'step_up_required', step_up: { methods: ['password'] } });
  });

  it('refuses a slug that is taken and names the field', async () => {
    const ada = await person(mailbox, 'ada');
    await createOrganization(ada, 'Taken Slug Org');
    const again = await asBrowser(ada.browser, 'POST', '/api/organizations', { body: { name: 'Other', slug: 'taken-slug-org' } });
    expect(again.status).toBe(409);
    // Derived slugs never collide: a second "Taken Slug Org" gets a suffix.
    const derived = await asBrowser(ada.browser, 'POST', '/api/organizations', { body: { name: 'Taken Slug Org' } });
    expect((await derived.json()).slug).toMatch(/^taken-slug-org-[0-9a-f]{6}$/);
  });
});
