/**
 * Tokens for developers' APIs (issue 23), checked by an independent resource server: jose's jwtVerify
 * with createRemoteJWKSet against our JWKS (fetched through the pipeline), and openid-client as the
 * client (client credentials, the code flow with a resource indicator). RFC 9068 JWTs with the API as
 * audience; machine tokens carry only the permissions the owner granted; a disabled or deleted API
 * gets no token; our own API keeps its opaque tokens.
 */
import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import { calculateJwkThumbprint, createRemoteJWKSet, customFetch, decodeProtectedHeader, exportJWK, jwtVerify, type FetchImplementation } from 'jose';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { memberships } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { withEnv } from '@/tests/setup/state';
import { createApiResource, MACHINE_ACCESS, ONE_API_RESOURCE } from '@/tests/helpers/api-resources';
import { applicationRp, createApplication } from '@/tests/helpers/applications';
import { call, operation, ORIGIN } from '@/tests/helpers/http';
import { approve, authorizeWithConsent, consentRequest, CookieJar, pkce, REDIRECT, throughPipeline } from '@/tests/helpers/oauth';
import { asBrowser, createOrganization, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();
const pipelineFetch = throughPipeline();
const fetchJwks: FetchImplementation = (url, options) =>
  pipelineFetch(url, {
    method: options.method,
    redirect: options.redirect,
    signal: options.signal,
    headers: Object.fromEntries(options.headers),
    body: undefined,
  });
const jwks = createRemoteJWKSet(new URL(`${ORIGIN}/.well-known/jwks.json`), { [customFetch]: fetchJwks });

/** A developer with an API open to machines and a confidential application granted `permissions` of it. */
async function machineSetup(permissions: string[]) {
  const owner = await person(mailbox, 'owner');
  const api = await createApiResource(owner, { access_token_ttl_seconds: 600 });
  const app = await createApplication(owner);
  const granted = await asBrowser(owner.browser, 'PUT', MACHINE_ACCESS, {
    params: { api_resource_id: api.id },
    body: { client_id: app.client_id, permissions },
  });
  expect(granted.status).toBe(200);
  return { owner, api, app, rp: await applicationRp(app.client_id, app.client_secret) };
}

const machineToken = (rp: client.Configuration, resource: string | undefined, scope = 'invoices:read invoices:write') =>
  client.clientCredentialsGrant(rp, { scope, ...(resource ? { resource } : {}) });

const oauthError = (error: string) => expect.objectContaining({ error });

async function change(owner: Person, apiId: string, body: Record<string, unknown>) {
  expect((await asBrowser(owner.browser, 'PATCH', ONE_API_RESOURCE, { params: { api_resource_id: apiId }, body })).status).toBe(200);
}

describe('machine tokens (client credentials)', () => {
  it('are RFC 9068 JWTs for the API, with only the granted permissions and no refresh token', async () => {
    const { api, app, rp } = await machineSetup(['invoices:read']);
    const tokens = await machineToken(rp, api.identifier);
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope).toBe('invoices:read');

    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ typ: 'at+jwt', alg: 'RS256' });
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: ORIGIN, audience: api.identifier, typ: 'at+jwt' });
    expect(payload).toMatchObject({ sub: app.client_id, client_id: app.client_id, scope: 'invoices:read' });
    expect(payload.exp! - payload.iat!).toBe(600);
    expect(payload.jti).toEqual(expect.any(String));
  });

  it('is refused by the resource server once expired', async () => {
    const { api, rp } = await machineSetup(['invoices:read']);
    const { access_token } = await machineToken(rp, api.identifier);
    const { payload } = await jwtVerify(access_token, jwks, { audience: api.identifier });
    const afterExpiry = new Date((payload.exp! + 1) * 1000);
    await expect(jwtVerify(access_token, jwks, { audience: api.identifier, currentDate: afterExpiry })).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  it('is refused without a resource, for an API the client has no access to, and for a public client', async () => {
    const { owner, rp } = await machineSetup(['invoices:read']);
    await expect(machineToken(rp, undefined)).rejects.toEqual(oauthError('invalid_target'));
    const other = await createApiResource(owner);
    await expect(machineToken(rp, other.identifier)).rejects.toEqual(oauthError('invalid_target'));
    await expect(machineToken(rp, 'https://nobody.example.test/api')).rejects.toEqual(oauthError('invalid_target'));

    const publicApp = await createApplication(owner, { client_type: 'public' });
    // The provider's words for a grant type the client may not use.
    await expect(machineToken(await applicationRp(publicApp.client_id), other.identifier)).rejects.toEqual(oauthError('invalid_request'));
  });

  it('verifies only at its own API: another audience is refused by the resource server, and our API and userinfo refuse it', async () => {
    const { owner, api, rp } = await machineSetup(['invoices:read']);
    const other = await createApiResource(owner);
    const { access_token } = await machineToken(rp, api.identifier);
    await expect(jwtVerify(access_token, jwks, { issuer: ORIGIN, audience: other.identifier })).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
    });
    const bearer = { headers: { authorization: `Bearer ${access_token}` } };
    expect((await call(operation('GET', '/api/v1/me'), bearer)).status).toBe(401);
    expect((await call(operation('GET', '/oauth/userinfo'), bearer)).status).toBe(401);
  });

  it('stops at once for a disabled, closed or deleted API, and follows a narrowed grant', async () => {
    const { owner, api, rp } = await machineSetup(['invoices:read', 'invoices:write']);
    expect((await machineToken(rp, api.identifier)).scope).toBe('invoices:read invoices:write');

    await change(owner, api.id, { permissions: [{ name: 'invoices:read', description: 'Read invoices' }] });
    expect((await machineToken(rp, api.identifier)).scope).toBe('invoices:read');

    await change(owner, api.id, { status: 'disabled' });
    await expect(machineToken(rp, api.identifier)).rejects.toEqual(oauthError('invalid_target'));
    await change(owner, api.id, { status: 'enabled' });
    expect((await machineToken(rp, api.identifier)).scope).toBe('invoices:read');

    await change(owner, api.id, { machine_clients: false });
    await expect(machineToken(rp, api.identifier)).rejects.toEqual(oauthError('invalid_target'));

    await asBrowser(owner.browser, 'DELETE', ONE_API_RESOURCE, { params: { api_resource_id: api.id } });
    await expect(machineToken(rp, api.identifier)).rejects.toEqual(oauthError('invalid_target'));
  });
});

describe('the machine token bucket', () => {
  it('counts each authenticated client on its own: bad secrets spend nothing, and past the limit it is 429 with Retry-After', async () => {
    const { api, app, rp } = await machineSetup(['invoices:read']);
    const other = await machineSetup(['invoices:read']);
    // 600 a minute, scaled down to 3 for the test.
    const restore = withEnv({ RATE_LIMIT_SCALE: String(3 / 600) });
    try {
      const guesser = await applicationRp(app.client_id, 'not-the-secret-of-this-client-0123456789');
      // openid-client reports the 401 invalid_client as a WWW-Authenticate challenge.
      for (let i = 0; i < 4; i++) await expect(machineToken(guesser, api.identifier)).rejects.toMatchObject({ status: 401 });
      for (let i = 0; i < 3; i++) expect((await machineToken(rp, api.identifier)).scope).toBe('invoices:read');
      const refused = await call(operation('POST', '/oauth/token'), {
        rawBody: new URLSearchParams({ grant_type: 'client_credentials', resource: api.identifier, scope: 'invoices:read' }).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`,
        },
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ error: 'too_many_requests' });
      expect((await machineToken(other.rp, other.api.identifier)).scope).toBe('invoices:read');
    } finally {
      restore();
    }
  });
});

describe("a person's authorization for an API", () => {
  it("yields a JWT for the API with the person as subject and the API's permissions asked for; refresh keeps it", async () => {
    const owner = await person(mailbox, 'owner');
    const api = await createApiResource(owner);
    const app = await createApplication(owner);
    const rp = await applicationRp(app.client_id, app.client_secret);
    const user = await person(mailbox, 'user');
    const tokens = await authorizeWithConsent(rp, new CookieJar(user.browser), user.browser, 'openid offline_access invoices:read', {
      resource: api.identifier,
    });

    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: ORIGIN, audience: api.identifier, typ: 'at+jwt' });
    expect(payload).toMatchObject({ sub: user.userId, client_id: app.client_id, scope: 'invoices:read' });
    expect(payload.exp! - payload.iat!).toBe(3600);

    const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
    expect((await jwtVerify(refreshed.access_token, jwks, { audience: api.identifier })).payload).toMatchObject({ sub: user.userId, scope: 'invoices:read' });

    // Deleted: its tokens are no longer issued, a refresh included.
    await asBrowser(owner.browser, 'DELETE', ONE_API_RESOURCE, { params: { api_resource_id: api.id } });
    await expect(client.refreshTokenGrant(rp, refreshed.refresh_token!)).rejects.toEqual(oauthError('invalid_target'));
  });

  it('lets a refresh narrow the permissions but never widen them', async () => {
    const owner = await person(mailbox, 'owner');
    const api = await createApiResource(owner);
    const app = await createApplication(owner);
    const rp = await applicationRp(app.client_id, app.client_secret);
    const user = await person(mailbox, 'user');
    const tokens = await authorizeWithConsent(rp, new CookieJar(user.browser), user.browser, 'openid offline_access invoices:read invoices:write', {
      resource: api.identifier,
    });
    expect((await jwtVerify(tokens.access_token, jwks, { audience: api.identifier })).payload.scope).toBe('invoices:read invoices:write');
    const narrowed = await client.refreshTokenGrant(rp, tokens.refresh_token!, { scope: 'invoices:read', resource: api.identifier });
    expect((await jwtVerify(narrowed.access_token, jwks, { audience: api.identifier })).payload.scope).toBe('invoices:read');
    const second = await authorizeWithConsent(rp, new CookieJar(user.browser), user.browser, 'openid offline_access invoices:read', {
      resource: api.identifier,
    });
    await expect(client.refreshTokenGrant(rp, second.refresh_token!, { scope: 'invoices:read invoices:write', resource: api.identifier })).rejects.toEqual(
      oauthError('invalid_scope'),
    );
  });

  it('leaves our own API its opaque tokens', async () => {
    const owner = await person(mailbox, 'owner');
    const app = await createApplication(owner);
    const rp = await applicationRp(app.client_id, app.client_secret);
    const user = await person(mailbox, 'user');
    const tokens = await authorizeWithConsent(rp, new CookieJar(user.browser), user.browser, 'openid identity.profile.read');
    expect(tokens.access_token.split('.')).toHaveLength(1);
  });
});

describe('the consent page', () => {
  it("names the API and describes each of its permissions in its owner's words", async () => {
    const owner = await person(mailbox, 'owner');
    const api = await createApiResource(owner);
    const app = await createApplication(owner);
    const response = await call(operation('GET', '/oauth/authorize/context'), {
      query: new URLSearchParams({
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'openid invoices:write',
        resource: api.identifier,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }).toString(),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const context = (await response.json()) as { api: unknown; scopes: { scope: string; description: string }[] };
    expect(context.api).toEqual({ identifier: api.identifier, name: 'Invoices API' });
    expect(context.scopes).toContainEqual({ scope: 'invoices:write', description: 'Create and change invoices' });
  });
});

describe('introspection (RFC 7662) and revocation (RFC 7009) of API tokens', () => {
  const form = (values: Record<string, string>, clientId: string, secret?: string) => ({
    rawBody: new URLSearchParams(values).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(secret ? { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` } : {}),
    },
  });
  const introspect = async (token: string, clientId: string, secret?: string) => {
    const response = await call(operation('POST', '/oauth/introspect'), form({ token, ...(secret ? {} : { client_id: clientId }) }, clientId, secret));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('is advertised in discovery, active for the token’s own client, inactive for another, and refuses a wrong secret', async () => {
    const metadata = (await (await call(operation('GET', '/.well-known/openid-configuration'))).json()) as Record<string, unknown>;
    expect(metadata.introspection_endpoint).toBe(`${ORIGIN}/oauth/introspect`);

    const { api, app, rp } = await machineSetup(['invoices:read']);
    const { access_token } = await machineToken(rp, api.identifier);
    const own = await introspect(access_token, app.client_id, app.client_secret);
    expect(own).toEqual({
      status: 200,
      body: expect.objectContaining({
        active: true,
        client_id: app.client_id,
        sub: app.client_id,
        aud: api.identifier,
        scope: 'invoices:read',
        token_type: 'Bearer',
      }),
    });
    const other = await machineSetup(['invoices:read']);
    expect(await introspect(access_token, other.app.client_id, other.app.client_secret)).toEqual({ status: 200, body: { active: false } });
    expect((await introspect(access_token, app.client_id, 'not-the-secret-0123456789')).status).toBe(401);
  });

  it("lets the API's own backend, named by its owner, introspect the API's tokens", async () => {
    const { owner, api, rp } = await machineSetup(['invoices:read']);
    const backend = await createApplication(owner);
    const { access_token } = await machineToken(rp, api.identifier);
    expect((await introspect(access_token, backend.client_id, backend.client_secret)).body).toEqual({ active: false });
    await change(owner, api.id, { resource_server_client_id: backend.client_id });
    expect((await introspect(access_token, backend.client_id, backend.client_secret)).body).toMatchObject({ active: true, aud: api.identifier });
    await change(owner, api.id, { resource_server_client_id: null });
    expect((await introspect(access_token, backend.client_id, backend.client_secret)).body).toEqual({ active: false });
  });

  it('answers inactive at once once the token is revoked, the API deleted, or the application disabled', async () => {
    const { owner, api, app, rp } = await machineSetup(['invoices:read']);
    const revoked = (await machineToken(rp, api.identifier)).access_token;
    const revoke = await call(operation('POST', '/oauth/revoke'), form({ token: revoked }, app.client_id, app.client_secret));
    expect(revoke.status).toBe(200);
    expect((await introspect(revoked, app.client_id, app.client_secret)).body).toEqual({ active: false });

    const kept = (await machineToken(rp, api.identifier)).access_token;
    expect((await introspect(kept, app.client_id, app.client_secret)).body.active).toBe(true);
    await change(owner, api.id, { status: 'disabled' });
    expect((await introspect(kept, app.client_id, app.client_secret)).body).toEqual({ active: false });
    await change(owner, api.id, { status: 'enabled' });
    expect((await introspect(kept, app.client_id, app.client_secret)).body.active).toBe(true);
    await asBrowser(owner.browser, 'DELETE', '/api/developer/applications/{application_id}', { params: { application_id: app.id } });
    expect((await introspect(kept, app.client_id, app.client_secret)).status).toBe(401);
  });

  it("answers inactive once the person's grant is revoked", async () => {
    const owner = await person(mailbox, 'owner');
    const api = await createApiResource(owner);
    const app = await createApplication(owner);
    const rp = await applicationRp(app.client_id, app.client_secret);
    const user = await person(mailbox, 'user');
    const tokens = await authorizeWithConsent(rp, new CookieJar(user.browser), user.browser, 'openid invoices:read', { resource: api.identifier });
    expect((await introspect(tokens.access_token, app.client_id, app.client_secret)).body).toMatchObject({ active: true, sub: user.userId });
    const grantId = (await (await asBrowser(user.browser, 'GET', '/api/auth/consents')).json()) as { consents: { grant_id: string }[] };
    await asBrowser(user.browser, 'POST', '/api/auth/consents/revoke', { body: { grant_id: grantId.consents[0]!.grant_id } });
    expect((await introspect(tokens.access_token, app.client_id, app.client_secret)).body).toEqual({ active: false });
  });
});

describe('DPoP (RFC 9449)', () => {
  it('binds a machine token to the client’s key; introspection names the key; our own API refuses bound tokens', async () => {
    const { api, app, rp } = await machineSetup(['invoices:read']);
    const keys = await client.randomDPoPKeyPair('ES256');
    const tokens = await client.clientCredentialsGrant(rp, { resource: api.identifier }, { DPoP: client.getDPoPHandle(rp, keys) });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const jkt = await calculateJwkThumbprint(await exportJWK(keys.publicKey));
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: ORIGIN, audience: api.identifier });
    expect(payload.cnf).toEqual({ jkt });

    const introspected = await call(operation('POST', '/oauth/introspect'), {
      rawBody: new URLSearchParams({ token: tokens.access_token }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`,
      },
    });
    expect(await introspected.json()).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt } });

    // A person's DPoP-bound token for our own API: this resource server takes no proofs yet, so none passes.
    const owner = await person(mailbox, 'owner');
    const ownApp = await createApplication(owner);
    const ownRp = await applicationRp(ownApp.client_id, ownApp.client_secret);
    const user = await person(mailbox, 'user');
    const { params, verifier, state } = await consentRequest(ownRp, 'openid identity.profile.read');
    const callback = await approve(new CookieJar(user.browser), user.browser, params);
    const bound = await client.authorizationCodeGrant(ownRp, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, {
      DPoP: client.getDPoPHandle(ownRp, keys),
    });
    expect(bound.token_type.toLowerCase()).toBe('dpop');
    for (const scheme of ['Bearer', 'DPoP'])
      expect((await call(operation('GET', '/api/v1/me'), { headers: { authorization: `${scheme} ${bound.access_token}` } })).status).toBe(401);
  });
});

describe('organization roles carrying API permissions', () => {
  it("gives an organization-bound token exactly the member's permissions for the API, and follows a role change at refresh", async () => {
    const owner = await person(mailbox, 'owner');
    const api = await createApiResource(owner);
    const app = await createApplication(owner, { scopes: ['openid', 'offline_access', 'identity.organization.read'] });
    const rp = await applicationRp(app.client_id, app.client_secret);
    const organizationId = await createOrganization(owner);
    const roles = '/api/organizations/{id}/roles';
    const created = await asBrowser(owner.browser, 'POST', roles, {
      params: { id: organizationId },
      body: { name: 'Billing clerk', permissions: ['read'], api_permissions: [{ resource: api.identifier, permission: 'invoices:read' }] },
    });
    expect(created.status).toBe(201);
    const role = (await created.json()) as { id: string; api_permissions: unknown };
    expect(role.api_permissions).toEqual([{ resource: api.identifier, permission: 'invoices:read' }]);
    const refused = await asBrowser(owner.browser, 'POST', roles, {
      params: { id: organizationId },
      body: { name: 'Nonsense', permissions: ['read'], api_permissions: [{ resource: api.identifier, permission: 'invoices:delete' }] },
    });
    expect(refused.status).toBe(400);

    const clerk = await person(mailbox, 'clerk');
    const now = new Date();
    await (await getDb()).insert(memberships).values({
      id: randomUUID(),
      organizationId,
      userId: clerk.userId,
      role: 'custom',
      customRoleId: role.id,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    });
    const scope = 'openid offline_access identity.organization.read invoices:read invoices:write';
    const tokens = await authorizeWithConsent(rp, new CookieJar(clerk.browser), clerk.browser, scope, {
      resource: api.identifier,
      organization: organizationId,
    });
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: ORIGIN, audience: api.identifier });
    expect(payload).toMatchObject({ sub: clerk.userId, organization_id: organizationId, scope: 'invoices:read' });

    await asBrowser(owner.browser, 'PATCH', `${roles}/{role_id}`, {
      params: { id: organizationId, role_id: role.id },
      body: {
        api_permissions: [
          { resource: api.identifier, permission: 'invoices:read' },
          { resource: api.identifier, permission: 'invoices:write' },
        ],
      },
    });
    const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
    expect((await jwtVerify(refreshed.access_token, jwks, { audience: api.identifier })).payload.scope).toBe('invoices:read invoices:write');

    // Unbound, the same person's authorization carries what they consented to.
    const unbound = await authorizeWithConsent(rp, new CookieJar(clerk.browser), clerk.browser, 'openid invoices:write', { resource: api.identifier });
    expect((await jwtVerify(unbound.access_token, jwks, { audience: api.identifier })).payload).toMatchObject({ scope: 'invoices:write' });
  });
});
