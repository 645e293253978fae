/**
 * Developer applications through the real pipeline and the real provider, with openid-client as the
 * relying party: confidential clients authenticate with client_secret_basic against a stored hash,
 * rotation, disabling (everything of the client revoked), redirect URI edits, certification, owner
 * isolation and the bearer surface.
 */
import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents, developerApplications, oidcModels, outboxEvents } from '@/lib/db/schema';
import { newClient, useMailbox } from '@/tests/helpers/accounts';
import { APPLICATIONS, applicationRp, createApplication, ONE_APPLICATION } from '@/tests/helpers/applications';
import { call, operation, problemOf } from '@/tests/helpers/http';
import { authorizationOutcome, authorizationParams, authorize, authorizeWithConsent, consentRequest, CookieJar, pkce, REDIRECT } from '@/tests/helpers/oauth';
import { asBrowser, person } from '@/tests/helpers/organizations';
import { hashClientSecret } from '@/lib/oidc';
import { approveApplicationScopes } from './applications';

const mailbox = useMailbox();
const SCOPE = 'openid offline_access identity.profile.read';
const OTHER_REDIRECT = 'http://127.0.0.1:50011/callback';

const me = (accessToken: string) => call(operation('GET', '/api/v1/me'), { headers: { authorization: `Bearer ${accessToken}` } });
const one = (id: string) => ({ params: { application_id: id } });
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A token request authenticated with client_secret_basic (the code is never reached when the client fails). */
async function tokenWithSecret(clientId: string, secret: string) {
  return call(operation('POST', '/oauth/token'), {
    rawBody: new URLSearchParams({ grant_type: 'authorization_code', code: 'not-a-code', code_verifier: pkce().verifier, redirect_uri: REDIRECT }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(clientId, secret), 'x-forwarded-for': newClient() },
  });
}

/** openid-client reports a 401 client failure as a WWW-Authenticate challenge. */
const INVALID_CLIENT = { status: 401, cause: [expect.objectContaining({ parameters: expect.objectContaining({ error: 'invalid_client' }) })] };

async function rowOf(id: string) {
  const [row] = await (await getDb()).select().from(developerApplications).where(eq(developerApplications.id, id));
  return row!;
}

describe('a confidential application is a real client of the provider', () => {
  it('runs the code flow with PKCE and client_secret_basic; only the hash is stored, and the hash is no secret', async () => {
    const ada = await person(mailbox, 'ada');
    const app = await createApplication(ada);
    expect(app).toMatchObject({ client_type: 'confidential', status: 'enabled', approved_scopes: ['openid', 'offline_access', 'identity.profile.read'] });
    expect(app.grant_types).toEqual(['authorization_code', 'refresh_token']);
    expect(app.client_secret).toMatch(/^ics_[A-Za-z0-9_-]{43}$/);

    const rp = await applicationRp(app.client_id, app.client_secret);
    const tokens = await authorizeWithConsent(rp, new CookieJar(ada.browser), ada.browser, SCOPE);
    expect((await me(tokens.access_token)).status).toBe(200);
    expect((await client.refreshTokenGrant(rp, tokens.refresh_token!)).access_token).toEqual(expect.any(String));

    const row = await rowOf(app.id);
    expect(row.secretHash).toBe(hashClientSecret(app.client_secret!));
    const db = await getDb();
    const stored = JSON.stringify([
      row,
      await db.select().from(oidcModels).where(eq(oidcModels.id, app.client_id)),
      await db.select().from(auditEvents),
      await db.select().from(outboxEvents),
    ]);
    expect(stored).not.toContain(app.client_secret);

    const dumped = await tokenWithSecret(app.client_id, row.secretHash!);
    expect(dumped.status).toBe(401);
    expect((await dumped.json()).error).toBe('invalid_client');
    const list = await (await asBrowser(ada.browser, 'GET', APPLICATIONS)).text();
    expect(list).not.toContain(app.client_secret);
    expect(list).not.toContain(row.secretHash);
  });

  it('rotation: the old secret is refused at once, the new one works; a public client has nothing to rotate (409)', async () => {
    const ada = await person(mailbox, 'ada');
    const app = await createApplication(ada);
    const oldRp = await applicationRp(app.client_id, app.client_secret);
    const tokens = await authorizeWithConsent(oldRp, new CookieJar(ada.browser), ada.browser, SCOPE);

    const rotated = await asBrowser(ada.browser, 'POST', `${ONE_APPLICATION}/rotate-secret`, one(app.id));
    expect(rotated.status).toBe(200);
    const { client_secret: secret, client_id } = (await rotated.json()) as { client_secret: string; client_id: string };
    expect(client_id).toBe(app.client_id);
    expect(secret).not.toBe(app.client_secret);

    await expect(client.refreshTokenGrant(oldRp, tokens.refresh_token!)).rejects.toMatchObject(INVALID_CLIENT);
    const newRp = await applicationRp(app.client_id, secret);
    expect((await client.refreshTokenGrant(newRp, tokens.refresh_token!)).access_token).toEqual(expect.any(String));

    const spa = await createApplication(ada, { client_type: 'public' });
    expect(spa.client_secret).toBeUndefined();
    const refused = await asBrowser(ada.browser, 'POST', `${ONE_APPLICATION}/rotate-secret`, one(spa.id));
    expect(refused.status).toBe(409);
  });

  it('DELETE disables: the refresh fails, the access token is unknown, the provider refuses the client; a second DELETE is 409', async () => {
    const ada = await person(mailbox, 'ada');
    const app = await createApplication(ada);
    const rp = await applicationRp(app.client_id, app.client_secret);
    const tokens = await authorizeWithConsent(rp, new CookieJar(ada.browser), ada.browser, SCOPE);

    const deleted = await asBrowser(ada.browser, 'DELETE', ONE_APPLICATION, one(app.id));
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id: app.id, status: 'disabled' });

    await expect(client.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject(INVALID_CLIENT);
    expect((await me(tokens.access_token)).status).toBe(401);
    const token = await tokenWithSecret(app.client_id, app.client_secret!);
    expect((await token.json()).error).toBe('invalid_client');
    const started = await authorize(new CookieJar(), authorizationParams(app.client_id, pkce().challenge, { scope: 'openid' }));
    expect(new URL(started.headers.get('location')!, 'http://x').searchParams.get('error')).toBe('invalid_client');
    const left = await (await getDb()).select().from(oidcModels);
    // The person's provider session stays (it is theirs, not the client's); it only names the gone grant.
    expect(left.filter((row) => row.model !== 'Session' && JSON.stringify(row.payload).includes(app.client_id))).toEqual([]);

    const again = await asBrowser(ada.browser, 'DELETE', ONE_APPLICATION, one(app.id));
    expect(again.status).toBe(409);
    expect((await rowOf(app.id)).status).toBe('disabled');
    const audit = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.subjectId, app.id));
    expect(audit.map((e) => e.action).sort()).toEqual(['application.created', 'application.disabled']);
    const events = await (await getDb()).select().from(outboxEvents).where(eq(outboxEvents.userId, ada.userId));
    expect(events.filter((e) => e.type.startsWith('identity.application.')).map((e) => [e.type, e.payload])).toEqual([
      ['identity.application.created', { application_id: app.id, client_id: app.client_id }],
      ['identity.application.disabled', { application_id: app.id, client_id: app.client_id }],
    ]);
  });

  it('PATCH: a removed redirect URI is refused by the provider at authorize; the name changes everywhere', async () => {
    const ada = await person(mailbox, 'ada');
    const app = await createApplication(ada, { client_type: 'public', redirect_uris: [REDIRECT, OTHER_REDIRECT] });
    const patched = await asBrowser(ada.browser, 'PATCH', ONE_APPLICATION, { ...one(app.id), body: { name: 'Renamed', redirect_uris: [OTHER_REDIRECT] } });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ name: 'Renamed', redirect_uris: [OTHER_REDIRECT] });
    const refused = await authorize(new CookieJar(), authorizationParams(app.client_id, pkce().challenge, { scope: 'openid' }));
    expect(new URL(refused.headers.get('location')!, 'http://x').searchParams.get('error')).toBe('invalid_redirect_uri');
    const allowed = await authorize(
      new CookieJar(ada.browser),
      authorizationParams(app.client_id, pkce().challenge, { scope: 'openid', redirect_uri: OTHER_REDIRECT }),
    );
    expect(allowed.headers.get('location')).toMatch(/^\/consent\//);
  });
});

describe('certification', () => {
  it('keeps reviewed scopes pending: the provider refuses them (invalid_scope) until an operator approves', async () => {
    const ada = await person(mailbox, 'ada');
    const app = await createApplication(ada, { client_type: 'public', scopes: ['openid', 'identity.developer.read'] });
    expect(app.approved_scopes).toEqual(['openid']);
    const status = async () => (await asBrowser(ada.browser, 'GET', `${ONE_APPLICATION}/certification/status`, one(app.id))).json();
    expect(await status()).toMatchObject({
      application_id: app.id,
      status: 'pending_review',
      approved_scopes: ['openid'],
      pending_scopes: ['identity.developer.read'],
    });

    const rp = await applicationRp(app.client_id);
    const { params } = await consentRequest(rp, 'openid identity.developer.read');
    const outcome = await authorizationOutcome(await authorize(new CookieJar(ada.browser), params));
    expect(outcome.answer?.get('error')).toBe('invalid_scope');

    await approveApplicationScopes(app.client_id, ['identity.developer.read'], new Date());
    expect(await status()).toMatchObject({ status: 'certified', approved_scopes: ['openid', 'identity.developer.read'], pending_scopes: [] });
    const tokens = await authorizeWithConsent(rp, new CookieJar(ada.browser), ada.browser, 'openid identity.developer.read');
    expect(tokens.scope).toBe('openid identity.developer.read');
    const list = await call(operation('GET', '/api/v1/developer/applications'), { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ authentication: 'oauth', applications: [{ id: app.id }] });
  });

  it('an application whose every scope is pending is unknown to the provider (an empty scope list would mean any scope)', async () => {
    const ada = await person(mailbox, 'ada');
    const app = await createApplication(ada, { client_type: 'public', scopes: ['identity.privacy.export'] });
    expect(app.approved_scopes).toEqual([]);
    const request = authorizationParams(app.client_id, pkce().challenge, { scope: 'openid identity.profile.read' });
    const refused = await authorize(new CookieJar(ada.browser), request);
    expect(new URL(refused.headers.get('location')!, 'http://x').searchParams.get('error')).toBe('invalid_client');
    const status = await (await asBrowser(ada.browser, 'GET', `${ONE_APPLICATION}/certification/status`, one(app.id))).json();
    expect(status.checks).toContainEqual(expect.objectContaining({ name: 'approved_scope_present', passed: false }));

    await approveApplicationScopes(app.client_id, ['identity.privacy.export'], new Date());
    const started = await authorize(new CookieJar(ada.browser), { ...request, scope: 'identity.privacy.export' });
    expect(started.headers.get('location')).toMatch(/^\/consent\//);
    const outcome = await authorizationOutcome(await authorize(new CookieJar(ada.browser), request));
    expect(outcome.answer?.get('error')).toBe('invalid_scope');
  });

  it('PATCH runs certification again: a new reviewed scope is pending, an approval survives while requested', async () => {
    const ada = await person(mailbox, 'ada');
    const app = await createApplication(ada, { client_type: 'public', scopes: ['openid', 'identity.developer.read'] });
    await approveApplicationScopes(app.client_id, ['identity.developer.read'], new Date());
    const patch = (scopes: string[]) => asBrowser(ada.browser, 'PATCH', ONE_APPLICATION, { ...one(app.id), body: { scopes } });
    expect(await (await patch(['openid', 'identity.developer.read', 'identity.webhooks.test'])).json()).toMatchObject({
      approved_scopes: ['openid', 'identity.developer.read'],
    });
    expect(await (await patch(['openid', 'identity.webhooks.test'])).json()).toMatchObject({ approved_scopes: ['openid'] });
    expect(await (await patch(['openid', 'identity.developer.read'])).json()).toMatchObject({ approved_scopes: ['openid'] });
  });
});

describe('registration limits and client authentication', () => {
  it('counts registrations per account (20 an hour, 429 after), whichever surface', async () => {
    const ada = await person(mailbox, 'ada');
    const body = { name: 'Many', client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid'] };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await asBrowser(ada.browser, 'POST', APPLICATIONS, { body })).status);
    expect(statuses.slice(0, 20).every((status) => status === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
    const eve = await person(mailbox, 'eve');
    expect((await asBrowser(eve.browser, 'POST', APPLICATIONS, { body })).status).toBe(201);
  });

  it('offers no method or algorithm that would use the secret as a key; client_secret_post compares hashes too', async () => {
    const metadata = await (await call(operation('GET', '/.well-known/openid-configuration'))).json();
    expect(metadata.token_endpoint_auth_methods_supported).not.toContain('client_secret_jwt');
    for (const key of Object.keys(metadata).filter((k) => k.endsWith('_alg_values_supported'))) {
      expect(
        (metadata[key] as string[]).filter((alg) => /^HS/.test(alg)),
        key,
      ).toEqual([]);
    }
    const ada = await person(mailbox, 'ada');
    const app = await createApplication(ada);
    const post = (secret: string) =>
      call(operation('POST', '/oauth/token'), {
        rawBody: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'unknown', client_id: app.client_id, client_secret: secret }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': newClient() },
      });
    // The right secret authenticates (the refresh token is what fails), the hash does not.
    expect((await (await post(app.client_secret!)).json()).error).toBe('invalid_grant');
    expect((await (await post(hashClientSecret(app.client_secret!))).json()).error).toBe('invalid_client');
  });
});

describe('owner isolation and bad input', () => {
  it("another developer's application is 404 on every route; so is a malformed id", async () => {
    const ada = await person(mailbox, 'ada');
    const eve = await person(mailbox, 'eve');
    const app = await createApplication(ada);
    expect((await (await asBrowser(eve.browser, 'GET', APPLICATIONS)).json()).applications).toEqual([]);
    for (const id of [app.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const answers = [
        await asBrowser(eve.browser, 'PATCH', ONE_APPLICATION, { ...one(id), body: { name: 'Mine now' } }),
        await asBrowser(eve.browser, 'DELETE', ONE_APPLICATION, one(id)),
        await asBrowser(eve.browser, 'POST', `${ONE_APPLICATION}/rotate-secret`, one(id)),
        await asBrowser(eve.browser, 'GET', `${ONE_APPLICATION}/certification/status`, one(id)),
      ];
      for (const response of answers) {
        expect(response.status, id).toBe(404);
        expect((await problemOf(response)).code).toBe('not_found');
      }
    }
    expect(await rowOf(app.id)).toMatchObject({ name: 'Billing dashboard', status: 'enabled', secretHash: hashClientSecret(app.client_secret!) });
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const ada = await person(mailbox, 'ada');
    const valid = { name: 'x', client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid'] };
    const refused = [
      { ...valid, redirect_uris: [] },
      { ...valid, redirect_uris: ['http://app.example/cb'] },
      { ...valid, redirect_uris: ['https://app.example/cb#fragment'] },
      { ...valid, redirect_uris: ['not a url'] },
      { ...valid, redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`) },
      { ...valid, redirect_uris: [REDIRECT, REDIRECT] },
      { ...valid, scopes: [] },
      { ...valid, scopes: ['admin'] },
      { ...valid, client_type: 'hybrid' },
      { ...valid, grant_types: ['client_credentials'] },
      { ...valid, name: 'two\nlines' },
      { ...valid, token_endpoint_auth_method: 'client_secret_jwt' },
    ];
    for (const body of refused) {
      const response = await asBrowser(ada.browser, 'POST', APPLICATIONS, { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await (await asBrowser(ada.browser, 'GET', APPLICATIONS)).json()).applications).toEqual([]);
    const app = await createApplication(ada, valid);
    const patch = await asBrowser(ada.browser, 'PATCH', ONE_APPLICATION, { ...one(app.id), body: { redirect_uris: ['ftp://x'] } });
    expect(patch.status).toBe(400);
    expect((await asBrowser(ada.browser, 'PATCH', ONE_APPLICATION, { ...one(app.id), body: {} })).status).toBe(400);
    expect((await rowOf(app.id)).redirectUris).toEqual([REDIRECT]);
  });
});

describe('the bearer surface', () => {
  async function apiKey(owner: Awaited<ReturnType<typeof person>>, scopes: string[]) {
    const response = await asBrowser(owner.browser, 'POST', '/api/developer/api-keys', { body: { name: 'CI', scopes } });
    return ((await response.json()) as { api_key: string }).api_key;
  }
  const bearerPost = (key: string, body: unknown, idempotencyKey?: string) =>
    call(operation('POST', '/api/v1/developer/applications'), {
      body,
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': newClient(), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    });

  it('registers with an Idempotency-Key (required, replayed), never returns a secret; the confidential client waits for a portal secret', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await apiKey(ada, ['identity.applications.manage', 'identity.developer.read']);
    const body = { name: 'From CI', client_type: 'confidential', redirect_uris: [REDIRECT], scopes: ['openid'] };
    const missing = await bearerPost(key, body);
    expect(missing.status).toBe(400);
    expect((await problemOf(missing)).code).toBe('idempotency_key_required');

    const first = await bearerPost(key, body, 'register-1');
    expect(first.status).toBe(201);
    const text = await first.text();
    expect(text).not.toMatch(/client_secret|ics_/);
    const created = JSON.parse(text) as { id: string; client_id: string };
    const replay = await bearerPost(key, body, 'register-1');
    expect(replay.status).toBe(201);
    expect(((await replay.json()) as { id: string }).id).toBe(created.id);
    expect(await (await getDb()).select().from(developerApplications).where(eq(developerApplications.userId, ada.userId))).toHaveLength(1);

    // No secret, no client record: the provider refuses the client until the owner rotates in the portal.
    const status = await (await asBrowser(ada.browser, 'GET', `${ONE_APPLICATION}/certification/status`, one(created.id))).json();
    expect(status.checks).toContainEqual(expect.objectContaining({ name: 'client_secret_issued', passed: false }));
    const rotated = (await (await asBrowser(ada.browser, 'POST', `${ONE_APPLICATION}/rotate-secret`, one(created.id))).json()) as { client_secret: string };
    const tokens = await authorizeWithConsent(await applicationRp(created.client_id, rotated.client_secret), new CookieJar(ada.browser), ada.browser, 'openid');
    expect(tokens.access_token).toEqual(expect.any(String));

    const list = await call(operation('GET', '/api/v1/developer/applications'), { headers: { authorization: `Bearer ${key}` } });
    expect(await list.json()).toMatchObject({
      authentication: 'api_key',
      scopes: ['identity.developer.read', 'identity.applications.manage'],
      applications: [{ id: created.id }],
    });
  });

  it('refuses an API key without identity.applications.manage (403)', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await apiKey(ada, ['identity.developer.read']);
    const response = await bearerPost(key, { name: 'x', client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid'] }, 'k');
    expect(response.status).toBe(403);
    expect((await problemOf(response)).code).toBe('insufficient_scope');
  });
});

describe("the developer's own activity", () => {
  it('lists the caller’s developer actions newest first, without audit data; nobody else’s', async () => {
    const ada = await person(mailbox, 'ada');
    const eve = await person(mailbox, 'eve');
    const app = await createApplication(ada);
    await asBrowser(ada.browser, 'PATCH', ONE_APPLICATION, { ...one(app.id), body: { name: 'New name' } });
    await asBrowser(ada.browser, 'POST', '/api/developer/api-keys', { body: { name: 'CI', scopes: ['identity.developer.read'] } });
    await createApplication(eve);
    const response = await asBrowser(ada.browser, 'GET', '/api/developer/audit-events');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { audit_events: Record<string, unknown>[] };
    expect(body.audit_events.map((e) => e.action)).toEqual(['api_key.created', 'application.updated', 'application.created']);
    expect(body.audit_events[1]).toEqual({
      id: expect.any(String),
      action: 'application.updated',
      outcome: 'success',
      subject_type: 'application',
      subject_id: app.id,
      subject_name: 'New name',
      created_at: expect.any(String),
      request_id: expect.any(String),
    });
  });
});

describe('text that is not well-formed UTF-16', () => {
  it('a lone surrogate in the name of a new application is a 400, not a 500 (PROPERTY_SEED=1246211989)', async () => {
    const ada = await person(mailbox, 'ada');
    const response = await asBrowser(ada.browser, 'POST', APPLICATIONS, {
      body: { name: '\ud800person@example.com', client_type: 'confidential', redirect_uris: [REDIRECT], scopes: ['openid'] },
    });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors).toEqual([{ path: 'body.name', message: expect.stringMatching(/lone surrogate/) }]);
    const list = (await (await asBrowser(ada.browser, 'GET', APPLICATIONS)).json()) as { applications: unknown[] };
    expect(list.applications).toEqual([]);
  });
});

describe('redirect URIs with user info', () => {
  it('are refused on creation and on change, with the shared rule in words, and nothing is written', async () => {
    const ada = await person(mailbox, 'ada');
    const valid = { name: 'x', client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid'] };
    const rule = [
      { path: 'body.redirect_uris.0', message: 'A redirect URI is HTTPS, or plain http on a loopback address, without a fragment or user info (user@host).' },
    ];
    for (const uri of ['http://evil.example@127.0.0.1/cb', 'https://user:pw@app.example/cb', 'https://@app.example/cb']) {
      const created = await asBrowser(ada.browser, 'POST', APPLICATIONS, { body: { ...valid, redirect_uris: [uri] } });
      expect(created.status, uri).toBe(400);
      expect((await problemOf(created)).errors, uri).toEqual(rule);
    }
    expect((await (await asBrowser(ada.browser, 'GET', APPLICATIONS)).json()).applications).toEqual([]);
    const app = await createApplication(ada, valid);
    const patched = await asBrowser(ada.browser, 'PATCH', ONE_APPLICATION, { ...one(app.id), body: { redirect_uris: ['http://evil.example@127.0.0.1/cb'] } });
    expect(patched.status).toBe(400);
    expect((await problemOf(patched)).errors).toEqual(rule);
    expect((await rowOf(app.id)).redirectUris).toEqual([REDIRECT]);
  });
});
