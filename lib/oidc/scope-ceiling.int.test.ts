/**
 * Self-registered clients (POST /oauth/register) have a scope ceiling and are shown as unverified
 * on the consent screen; clients registered on a trusted path (the developer portal) keep the whole
 * scope table. openid-client is the relying party.
 */
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { call, operation, problemOf } from '@/tests/helpers/http';
import {
  authorizationOutcome,
  authorizationParams,
  authorize,
  authorizeWithConsent,
  CookieJar,
  pkce,
  REDIRECT,
  registerPortalClient,
  relyingParty,
} from '@/tests/helpers/oauth';
import { getProvider } from './provider';
import { SELF_REGISTRATION_SCOPES } from './scope-ceiling';
import { SCOPE_TABLE } from './scopes';

const mailbox = useMailbox();
const PASSWORD = 'a long and unusual passphrase';
const mcp = () => `${getConfig().baseUrl}/mcp`;
let addresses = 0;

const register = (body: Record<string, unknown>) =>
  call(operation('POST', '/oauth/register'), {
    body: { application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT], ...body },
    headers: { 'x-forwarded-for': `2001:db8:5c::${(addresses += 1).toString(16)}` },
  });

const context = (params: Record<string, string>) => call(operation('GET', '/oauth/authorize/context'), { query: new URLSearchParams(params).toString() });

/** The authorization request an openid-client RP builds, sent as a browser would; where it ended. */
async function outcomeOf(rp: client.Configuration, parameters: Record<string, string>) {
  const url = client.buildAuthorizationUrl(rp, {
    redirect_uri: REDIRECT,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: 's',
    ...parameters,
  });
  const response = await authorize(new CookieJar(), Object.fromEntries(url.searchParams));
  if (response.headers.get('location')?.startsWith('/consent/')) return { consent: true, error: null };
  return { consent: false, error: (await authorizationOutcome(response)).answer?.get('error') ?? null };
}

describe('registration', () => {
  // ASVS V10.4.11
  it('records the client as self-registered with the ceiling as its scope', async () => {
    const metadata = (await relyingParty('Ceiling CLI')).clientMetadata();
    expect(metadata.self_registered).toBe(true);
    expect(new Set(String(metadata.scope).split(' '))).toEqual(
      new Set([
        'openid',
        'offline_access',
        'profile',
        'identity.profile.read',
        'email',
        'identity.email.read',
        'identity.developer.read',
        'identity.webhooks.test',
        'identity.api_keys.create',
      ]),
    );
    expect(new Set(SELF_REGISTRATION_SCOPES)).toEqual(new Set(String(metadata.scope).split(' ')));
  });

  // ASVS V10.4.11
  it('lets a registrant narrow its scope, never widen it, and never set the marker itself', async () => {
    const narrowed = await register({ scope: 'openid email' });
    expect(narrowed.status).toBe(201);
    expect((await narrowed.json()).scope).toBe('openid email');
    for (const body of [{ scope: 'openid identity.privacy.export' }, { self_registered: false }, { self_registered: true }]) {
      const refused = await register(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((await refused.json()).error).toBe('invalid_client_metadata');
    }
  });
});

describe('the authorization endpoint for a self-registered client', () => {
  // ASVS V10.4.11
  it.each([
    ['a scope of a feature it may not use', { scope: 'openid identity.privacy.export' }],
    ['a write scope', { scope: 'identity.profile.write' }],
    ['identity.api_keys.create without a resource', { scope: 'identity.api_keys.create' }],
    ['identity.api_keys.create for the API instead of /mcp', { scope: 'identity.api_keys.create', resource: 'API' }],
    ['identity.developer.read without a resource', { scope: 'identity.developer.read' }],
    ['identity.applications.manage even for /mcp', { scope: 'identity.applications.manage', resource: 'MCP' }],
  ])('refuses %s with invalid_scope', async (_name, parameters: Record<string, string>) => {
    const rp = await relyingParty('Greedy CLI');
    const named: Record<string, string> = { API: getConfig().baseUrl, MCP: mcp() };
    const resolved = parameters.resource ? { ...parameters, resource: named[parameters.resource]! } : parameters;
    expect(await outcomeOf(rp, resolved)).toEqual({ consent: false, error: 'invalid_scope' });
  });

  // ASVS V10.4.11
  it('grants identity.api_keys.create for the resource {base_url}/mcp (the agent flow), and a refresh cannot widen it', async () => {
    const email = 'agent-owner@example.test';
    await signUpWithPassword(mailbox, email, PASSWORD);
    const browser = await signInWithPassword(email, PASSWORD);
    const rp = await relyingParty('Agent');
    const tokens = await authorizeWithConsent(rp, new CookieJar(browser), browser, 'openid offline_access identity.api_keys.create', { resource: mcp() });
    expect(tokens.scope).toBe('identity.api_keys.create');
    expect((await (await getProvider()).AccessToken.find(tokens.access_token))?.aud).toBe(mcp());
    await expect(client.refreshTokenGrant(rp, tokens.refresh_token!, { scope: 'identity.privacy.export' })).rejects.toMatchObject({ error: 'invalid_scope' });
  });

  it('lets it ask for what the ceiling allows', async () => {
    const rp = await relyingParty('Plain CLI');
    expect(await outcomeOf(rp, { scope: 'openid profile email offline_access', prompt: 'consent' })).toEqual({ consent: true, error: null });
  });
});

describe('a client registered on a trusted path (the developer portal)', () => {
  it('keeps the whole scope table', async () => {
    const clientId = await registerPortalClient();
    const response = await authorize(
      new CookieJar(),
      authorizationParams(clientId, pkce().challenge, { scope: 'openid identity.privacy.export identity.api_keys.create' }),
    );
    expect(response.headers.get('location')).toMatch(/^\/consent\//);
    const described = await (await context(authorizationParams(clientId, pkce().challenge, { scope: 'identity.privacy.export' }))).json();
    expect(described.client).toMatchObject({ client_id: clientId, self_registered: false });
  });
});

describe('what the consent screen is told', () => {
  // ASVS V10.4.7, V10.7.2
  it('marks a self-registered client, names the host the code goes to, and words each scope for a person', async () => {
    const rp = await relyingParty('Definitely Your Bank');
    const clientId = rp.clientMetadata().client_id;
    const response = await context(
      authorizationParams(clientId, pkce().challenge, { scope: 'openid offline_access email identity.api_keys.create', resource: mcp() }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.client).toEqual({ client_id: clientId, client_name: 'Definitely Your Bank', self_registered: true });
    expect(body.redirect_host).toBe('127.0.0.1:50010');
    for (const { scope, description } of body.scopes as { scope: string; description: string }[]) {
      // identity.api_keys.create is worded for this client (its own key terms: the next test).
      if (scope !== 'identity.api_keys.create') expect(description).toBe(SCOPE_TABLE.find((s) => s.scope === scope)!.description);
      expect(description).not.toContain(scope);
      expect(description.split(' ').length, scope).toBeGreaterThanOrEqual(5);
    }
  });

  it('states the terms of the API keys an agent may create: at most 30 days, its scopes, revoked on disconnect', async () => {
    const rp = await relyingParty('Key-making agent');
    const response = await context(
      authorizationParams(rp.clientMetadata().client_id, pkce().challenge, { scope: 'identity.api_keys.create', resource: mcp() }),
    );
    const body = await response.json();
    expect(body.api_keys).toEqual({ max_lifetime_days: 30, scopes: ['identity.developer.read', 'identity.webhooks.test'], revoked_with_consent: true });
    expect(body.scopes).toEqual([
      {
        scope: 'identity.api_keys.create',
        description:
          'Create API keys on your account that expire after at most 30 days, limited to: see the applications, API keys and webhooks you manage (not their secrets); send test events to the webhooks you manage. They are revoked when you disconnect this application',
      },
    ]);
    // Without the scope, nothing is said about keys.
    const plain = await (await context(authorizationParams(rp.clientMetadata().client_id, pkce().challenge, { scope: 'openid' }))).json();
    expect(plain.api_keys).toBeNull();
  });

  // ASVS V10.4.11
  it('refuses a request beyond the ceiling before any screen renders', async () => {
    const rp = await relyingParty('Greedy CLI');
    const response = await context(authorizationParams(rp.clientMetadata().client_id, pkce().challenge, { scope: 'identity.organization.members.read' }));
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect((problem.errors as { path: string; message: string }[])[0]).toMatchObject({
      path: 'query.scope',
      message: expect.stringMatching(/not available to self-registered/),
    });
  });
});
