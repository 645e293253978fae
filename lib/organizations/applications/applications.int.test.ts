/**
 * Organization application assignments through the real pipeline and provider: assign by client id,
 * list, the applications.assigned_only policy at consent (unassigned refused, assigned allowed), and
 * DELETE ending the organization's bound grants of the application, but not its other grants.
 */
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { applicationRp, createApplication } from '@/tests/helpers/applications';
import { problemOf } from '@/tests/helpers/http';
import { authorize, authorizeWithConsent, consentRequest, CookieJar, decideAs, interactionOf } from '@/tests/helpers/oauth';
import { asBrowser, createOrganization, ownedOrganization, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();
const BOUND = 'openid offline_access identity.organization.read';
const ASSIGNMENTS = '/api/organizations/{id}/applications';
const ONE = '/api/organizations/{id}/applications/{application_id}';

const assign = (owner: Person, id: string, clientId: string) =>
  asBrowser(owner.browser, 'POST', ASSIGNMENTS, { params: { id }, body: { client_id: clientId } });

async function assignedOnly(owner: Person, id: string) {
  const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/policies', {
    params: { id },
    body: { policy_key: 'applications.assigned_only', value: true },
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

describe('organization application assignments', () => {
  it('assigns an enabled application by client id (409 when active, 404 when unknown) and lists it', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const app = await createApplication(await person(mailbox, 'dev'), { client_type: 'public', scopes: ['openid'] });
    const created = await assign(owner, id, app.client_id);
    expect(created.status).toBe(201);
    const record = { application_id: app.id, client_id: app.client_id, name: app.name, status: 'active', created_at: expect.any(String) };
    expect(await created.json()).toEqual(record);
    expect((await assign(owner, id, app.client_id)).status).toBe(409);
    expect((await assign(owner, id, 'app_unknown')).status).toBe(404);
    const list = await asBrowser(owner.browser, 'GET', ASSIGNMENTS, { params: { id } });
    expect(await list.json()).toEqual({ applications: [record], has_more: false, next_cursor: null });
  });

  it('with applications.assigned_only on, an unassigned application cannot be bound to the organization; an assigned one can', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const dev = await person(mailbox, 'dev');
    const assigned = await createApplication(dev, { client_type: 'public', scopes: BOUND.split(' ') });
    const unassigned = await createApplication(dev, { client_type: 'public', scopes: BOUND.split(' ') });
    expect((await assign(owner, id, assigned.client_id)).status).toBe(201);
    await assignedOnly(owner, id);

    const { params } = await consentRequest(await applicationRp(unassigned.client_id), BOUND, { organization: id });
    const interaction = interactionOf(await authorize(new CookieJar(owner.browser), params));
    const choice = await asBrowser(owner.browser, 'GET', '/oauth/authorize/organizations', {
      query: new URLSearchParams({ interaction_id: interaction }).toString(),
    });
    expect(await choice.json()).toMatchObject({ required: true, organizations: [], refusal: 'application_not_assigned' });
    const refused = await decideAs(owner.browser, interaction);
    expect(refused.status).toBe(403);
    expect((await problemOf(refused)).detail).toMatch(/only the applications it has assigned/);

    const tokens = await authorizeWithConsent(await applicationRp(assigned.client_id), new CookieJar(owner.browser), owner.browser, BOUND, {
      organization: id,
    });
    expect(tokens.access_token).toEqual(expect.any(String));
  });

  it("DELETE disables the assignment and ends the organization's bound grants of the application, not its other grants", async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const app = await createApplication(await person(mailbox, 'dev'), { client_type: 'public', scopes: BOUND.split(' ') });
    expect((await assign(owner, id, app.client_id)).status).toBe(201);
    const rp = await applicationRp(app.client_id);
    const bound = await authorizeWithConsent(rp, new CookieJar(owner.browser), owner.browser, BOUND, { organization: id });
    const unbound = await authorizeWithConsent(rp, new CookieJar(owner.browser), owner.browser, 'openid offline_access');

    const removed = await asBrowser(owner.browser, 'DELETE', ONE, { params: { id, application_id: app.id } });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ application_id: app.id, status: 'disabled' });
    await expect(client.refreshTokenGrant(rp, bound.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await client.refreshTokenGrant(rp, unbound.refresh_token!)).access_token).toEqual(expect.any(String));

    expect((await asBrowser(owner.browser, 'DELETE', ONE, { params: { id, application_id: app.id } })).status).toBe(409);
    const list = await (await asBrowser(owner.browser, 'GET', ASSIGNMENTS, { params: { id } })).json();
    expect(list.applications).toEqual([expect.objectContaining({ application_id: app.id, status: 'disabled' })]);
    // A disabled assignment can be made active again.
    expect((await assign(owner, id, app.client_id)).status).toBe(201);
  });

  it('the chooser leaves out organizations that refuse the application; a policy switched on later stops refreshes of bound grants', async () => {
    const { owner, id: strict } = await ownedOrganization(mailbox);
    const relaxed = await createOrganization(owner, 'Relaxed');
    const app = await createApplication(await person(mailbox, 'dev'), { client_type: 'public', scopes: BOUND.split(' ') });
    const rp = await applicationRp(app.client_id);
    const earlier = await authorizeWithConsent(rp, new CookieJar(owner.browser), owner.browser, BOUND, { organization: strict });
    await assignedOnly(owner, strict);

    await expect(client.refreshTokenGrant(rp, earlier.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const { params } = await consentRequest(rp, BOUND);
    const interaction = interactionOf(await authorize(new CookieJar(owner.browser), params));
    const choice = await asBrowser(owner.browser, 'GET', '/oauth/authorize/organizations', {
      query: new URLSearchParams({ interaction_id: interaction }).toString(),
    });
    expect(await choice.json()).toMatchObject({ required: true, organizations: [{ id: relaxed, name: 'Relaxed' }], refusal: null });
  });
});
