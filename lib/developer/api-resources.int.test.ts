/**
 * API resources through the real pipeline: registration and its bounds, the identifier taken for good
 * (deleted and erased APIs included), owner isolation, edits that narrow machine grants, machine
 * access for the owner's confidential applications only, the audit trail and the bearer surface.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb, inTransaction } from '@/lib/db';
import { apiResourceMachineAccess, apiResources, auditEvents } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { withEnv } from '@/tests/setup/state';
import { API_RESOURCES, createApiResource, freshIdentifier, MACHINE_ACCESS, ONE_API_RESOURCE } from '@/tests/helpers/api-resources';
import { createApplication } from '@/tests/helpers/applications';
import { call, operation, problemOf } from '@/tests/helpers/http';
import { asBrowser, person, type Person } from '@/tests/helpers/organizations';
import { eraseDeveloperDataOf } from './erasure';

const mailbox = useMailbox();
const one = (id: string) => ({ params: { api_resource_id: id } });

const register = (owner: Person, body: Record<string, unknown>) =>
  asBrowser(owner.browser, 'POST', API_RESOURCES, { body: { identifier: freshIdentifier(), name: 'API', permissions: [], ...body } });
const grant = (owner: Person, apiId: string, clientId: string, permissions: string[]) =>
  asBrowser(owner.browser, 'PUT', MACHINE_ACCESS, { ...one(apiId), body: { client_id: clientId, permissions } });
const grantsOf = async (owner: Person, apiId: string) =>
  ((await (await asBrowser(owner.browser, 'GET', MACHINE_ACCESS, one(apiId))).json()) as { machine_access: { client_id: string; permissions: string[] }[] })
    .machine_access;

async function fieldErrorOf(response: Response): Promise<string[]> {
  expect(response.status).toBe(400);
  const problem = (await problemOf(response)) as { errors?: { path: string }[] };
  return (problem.errors ?? []).map((e) => e.path);
}

describe('registering an API', () => {
  it('answers 201 with the defaults, and lists and reads it for its owner', async () => {
    const ada = await person(mailbox, 'ada');
    const identifier = freshIdentifier();
    const response = await register(ada, { identifier, name: 'Orders', permissions: [{ name: 'orders:read', description: 'Read your orders' }] });
    expect(response.status).toBe(201);
    const api = (await response.json()) as { id: string };
    expect(api).toMatchObject({
      identifier,
      name: 'Orders',
      permissions: [{ name: 'orders:read', description: 'Read your orders' }],
      access_token_ttl_seconds: 3600,
      machine_clients: false,
      status: 'enabled',
    });
    const listed = (await (await asBrowser(ada.browser, 'GET', API_RESOURCES)).json()) as { api_resources: { id: string }[]; has_more: boolean };
    expect(listed.api_resources.map((a) => a.id)).toEqual([api.id]);
    expect(await (await asBrowser(ada.browser, 'GET', ONE_API_RESOURCE, one(api.id))).json()).toEqual(api);
  });

  it('refuses identifiers that are not absolute https URIs without fragment or credentials', async () => {
    const ada = await person(mailbox, 'ada');
    for (const identifier of [
      'http://api.example.test',
      'https://api.example.test/#frag',
      'https://user:pw@api.example.test',
      'api.example.test',
      'https://',
      'https://a b.test',
    ])
      expect(await fieldErrorOf(await register(ada, { identifier })), identifier).toEqual(['body.identifier']);
  });

  it('refuses permission names with spaces, our own scope names and repeats, and lifetimes out of bounds', async () => {
    const ada = await person(mailbox, 'ada');
    const permission = (name: string) => ({ name, description: 'Something' });
    for (const permissions of [[permission('read orders')], [permission('openid')], [permission('identity.profile.read')], [permission('a'), permission('a')]])
      expect((await fieldErrorOf(await register(ada, { permissions })))[0], JSON.stringify(permissions)).toMatch(/^body\.permissions/);
    expect(await fieldErrorOf(await register(ada, { permissions: [{ name: 'a', description: 'line\nbreak' }] }))).toEqual(['body.permissions.0.description']);
    for (const ttl of [59, 86_401, 1.5])
      expect(await fieldErrorOf(await register(ada, { access_token_ttl_seconds: ttl }))).toEqual(['body.access_token_ttl_seconds']);
  });

  it('never gives an identifier twice: not to another owner, and not again once deleted', async () => {
    const [ada, bob] = [await person(mailbox, 'ada'), await person(mailbox, 'bob')];
    const api = await createApiResource(ada);
    const taken = await register(bob, { identifier: api.identifier });
    expect(taken.status).toBe(409);
    expect((await problemOf(taken)).code).toBe('conflict');

    expect((await asBrowser(ada.browser, 'DELETE', ONE_API_RESOURCE, one(api.id))).status).toBe(200);
    expect((await register(ada, { identifier: api.identifier })).status).toBe(409);
    expect((await register(bob, { identifier: api.identifier })).status).toBe(409);
  });
});

describe('registrations', () => {
  it('are counted per account, so that nobody squats identifiers in bulk', async () => {
    const [ada, bob] = [await person(mailbox, 'ada'), await person(mailbox, 'bob')];
    // 20 an hour, scaled down to 1 for the test.
    const restore = withEnv({ RATE_LIMIT_SCALE: String(1 / 20) });
    try {
      expect((await register(ada, {})).status).toBe(201);
      const refused = await register(ada, {});
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect((await register(bob, {})).status).toBe(201);
    } finally {
      restore();
    }
  });
});

describe("another owner's API", () => {
  it('is not found on every route, like a malformed id', async () => {
    const [ada, eve] = [await person(mailbox, 'ada'), await person(mailbox, 'eve')];
    const api = await createApiResource(ada);
    const eveApp = await createApplication(eve);
    for (const id of [api.id, 'not-a-uuid']) {
      expect((await asBrowser(eve.browser, 'GET', ONE_API_RESOURCE, one(id))).status).toBe(404);
      expect((await asBrowser(eve.browser, 'PATCH', ONE_API_RESOURCE, { ...one(id), body: { name: 'Mine' } })).status).toBe(404);
      expect((await asBrowser(eve.browser, 'DELETE', ONE_API_RESOURCE, one(id))).status).toBe(404);
      expect((await asBrowser(eve.browser, 'GET', MACHINE_ACCESS, one(id))).status).toBe(404);
      expect((await grant(eve, id, eveApp.client_id, ['invoices:read'])).status).toBe(404);
    }
    const [row] = await (await getDb()).select().from(apiResources).where(eq(apiResources.id, api.id));
    expect(row).toMatchObject({ name: 'Invoices API', status: 'enabled' });
  });
});

describe('machine access', () => {
  it("grants the owner's enabled confidential applications the API's permissions, and an empty list removes it", async () => {
    const ada = await person(mailbox, 'ada');
    const api = await createApiResource(ada);
    const app = await createApplication(ada);
    const granted = await grant(ada, api.id, app.client_id, ['invoices:read', 'invoices:read']);
    expect(granted.status).toBe(200);
    expect(await granted.json()).toEqual({ client_id: app.client_id, permissions: ['invoices:read'] });
    expect(await grantsOf(ada, api.id)).toEqual([{ client_id: app.client_id, permissions: ['invoices:read'] }]);

    expect((await grant(ada, api.id, app.client_id, ['invoices:read', 'invoices:write'])).status).toBe(200);
    expect(await grantsOf(ada, api.id)).toEqual([{ client_id: app.client_id, permissions: ['invoices:read', 'invoices:write'] }]);
    expect((await grant(ada, api.id, app.client_id, [])).status).toBe(200);
    expect(await grantsOf(ada, api.id)).toEqual([]);
  });

  it("refuses public, disabled and other owners' applications, unknown permissions, and APIs closed to machines", async () => {
    const [ada, bob] = [await person(mailbox, 'ada'), await person(mailbox, 'bob')];
    const api = await createApiResource(ada);
    const publicApp = await createApplication(ada, { client_type: 'public' });
    const bobApp = await createApplication(bob);
    const app = await createApplication(ada);
    expect(await fieldErrorOf(await grant(ada, api.id, publicApp.client_id, ['invoices:read']))).toEqual(['body.client_id']);
    expect(await fieldErrorOf(await grant(ada, api.id, bobApp.client_id, ['invoices:read']))).toEqual(['body.client_id']);
    expect(await fieldErrorOf(await grant(ada, api.id, 'no-such-client', ['invoices:read']))).toEqual(['body.client_id']);
    expect(await fieldErrorOf(await grant(ada, api.id, app.client_id, ['invoices:delete']))).toEqual(['body.permissions']);

    const disabled = await createApplication(ada);
    await asBrowser(ada.browser, 'DELETE', '/api/developer/applications/{application_id}', { params: { application_id: disabled.id } });
    expect(await fieldErrorOf(await grant(ada, api.id, disabled.client_id, ['invoices:read']))).toEqual(['body.client_id']);

    const closed = await createApiResource(ada, { machine_clients: false });
    expect((await grant(ada, closed.id, app.client_id, ['invoices:read'])).status).toBe(409);
    await asBrowser(ada.browser, 'PATCH', ONE_API_RESOURCE, { ...one(api.id), body: { status: 'disabled' } });
    expect((await grant(ada, api.id, app.client_id, ['invoices:read'])).status).toBe(409);
  });
});

describe('changing and deleting an API', () => {
  it("names as its resource server only one of the owner's enabled confidential applications", async () => {
    const [ada, bob] = [await person(mailbox, 'ada'), await person(mailbox, 'bob')];
    const api = await createApiResource(ada);
    const patch = (id: string | null) => asBrowser(ada.browser, 'PATCH', ONE_API_RESOURCE, { ...one(api.id), body: { resource_server_client_id: id } });
    const publicApp = await createApplication(ada, { client_type: 'public' });
    const bobApp = await createApplication(bob);
    for (const clientId of [publicApp.client_id, bobApp.client_id, 'no-such-client'])
      expect(await fieldErrorOf(await patch(clientId)), clientId).toEqual(['body.resource_server_client_id']);
    const backend = await createApplication(ada);
    expect(await (await patch(backend.client_id)).json()).toMatchObject({ resource_server_client_id: backend.client_id });
    expect(await (await patch(null)).json()).toMatchObject({ resource_server_client_id: null });
  });

  it('narrows machine grants to the permissions left, and closing it to machines ends them all', async () => {
    const ada = await person(mailbox, 'ada');
    const api = await createApiResource(ada);
    const [first, second] = [await createApplication(ada), await createApplication(ada)];
    await grant(ada, api.id, first.client_id, ['invoices:read', 'invoices:write']);
    await grant(ada, api.id, second.client_id, ['invoices:write']);

    const patched = await asBrowser(ada.browser, 'PATCH', ONE_API_RESOURCE, {
      ...one(api.id),
      body: { name: 'Billing API', permissions: [{ name: 'invoices:read', description: 'Read invoices' }], access_token_ttl_seconds: 600 },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ identifier: api.identifier, name: 'Billing API', access_token_ttl_seconds: 600 });
    expect(await grantsOf(ada, api.id)).toEqual([{ client_id: first.client_id, permissions: ['invoices:read'] }]);

    await asBrowser(ada.browser, 'PATCH', ONE_API_RESOURCE, { ...one(api.id), body: { machine_clients: false } });
    expect(await grantsOf(ada, api.id)).toEqual([]);
  });

  it('deletes: gone from its owner, its grants removed, its identifier kept as a tombstone; every change audited', async () => {
    const ada = await person(mailbox, 'ada');
    const api = await createApiResource(ada);
    const app = await createApplication(ada);
    await grant(ada, api.id, app.client_id, ['invoices:read']);
    const deleted = await asBrowser(ada.browser, 'DELETE', ONE_API_RESOURCE, one(api.id));
    expect(await deleted.json()).toEqual({ id: api.id, status: 'deleted' });
    expect((await asBrowser(ada.browser, 'GET', ONE_API_RESOURCE, one(api.id))).status).toBe(404);
    expect((await asBrowser(ada.browser, 'DELETE', ONE_API_RESOURCE, one(api.id))).status).toBe(404);
    const listed = (await (await asBrowser(ada.browser, 'GET', API_RESOURCES)).json()) as { api_resources: unknown[] };
    expect(listed.api_resources).toEqual([]);

    const db = await getDb();
    const [row] = await db.select().from(apiResources).where(eq(apiResources.id, api.id));
    expect(row).toMatchObject({ identifier: api.identifier, status: 'deleted', permissions: [], machineClients: false });
    expect(await db.select().from(apiResourceMachineAccess).where(eq(apiResourceMachineAccess.apiResourceId, api.id))).toEqual([]);
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.subjectId, api.id));
    expect(audit.map((e) => e.action).sort()).toEqual(['api_resource.created', 'api_resource.deleted', 'api_resource.machine_access_set']);
    expect(audit.find((e) => e.action === 'api_resource.created')?.data).toEqual({
      identifier: api.identifier,
      permissions: ['invoices:read', 'invoices:write'],
    });
  });

  it("keeps an erased owner's identifiers taken, with nothing else of them", async () => {
    const [ada, bob] = [await person(mailbox, 'ada'), await person(mailbox, 'bob')];
    const api = await createApiResource(ada);
    await inTransaction((tx) => eraseDeveloperDataOf(tx, ada.userId, new Date()));
    const [row] = await (await getDb()).select().from(apiResources).where(eq(apiResources.id, api.id));
    expect(row).toMatchObject({ userId: null, name: '', permissions: [], status: 'deleted' });
    expect((await register(bob, { identifier: api.identifier })).status).toBe(409);
  });
});

describe('the bearer surface', () => {
  async function keyOf(owner: Person, scopes: string[]): Promise<string> {
    const response = await asBrowser(owner.browser, 'POST', '/api/developer/api-keys', { body: { name: 'CI', scopes } });
    return ((await response.json()) as { api_key: string }).api_key;
  }
  const bearer = (method: string, key: string, body?: unknown) =>
    call(operation(method, '/api/v1/developer/api-resources'), {
      ...(body ? { body } : {}),
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': `k-${Math.random()}` },
    });

  it('registers with identity.applications.manage and lists with identity.developer.read, for the key owner only', async () => {
    const [ada, bob] = [await person(mailbox, 'ada'), await person(mailbox, 'bob')];
    await createApiResource(bob);
    const manage = await keyOf(ada, ['identity.applications.manage']);
    const read = await keyOf(ada, ['identity.developer.read']);
    const body = { identifier: freshIdentifier(), name: 'Ledger', permissions: [{ name: 'ledger:read', description: 'Read the ledger' }] };
    expect((await bearer('POST', read, body)).status).toBe(403);
    const created = await bearer('POST', manage, body);
    expect(created.status).toBe(201);
    const listed = (await (await bearer('GET', read)).json()) as { api_resources: { identifier: string }[] };
    expect(listed.api_resources.map((a) => a.identifier)).toEqual([body.identifier]);
  });
});
