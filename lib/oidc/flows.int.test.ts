import { describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { getProvider } from '@/lib/oidc/provider';
import { as, post, signInWithPassword, signUpWithPassword, useMailbox, type Browser } from '@/tests/helpers/accounts';
import { call, callRoute, operation, problemOf } from '@/tests/helpers/http';
import {
  approve,
  authorizationOutcome,
  authorizationParams,
  authorize,
  CookieJar,
  decideAs,
  exchangeCode,
  interactionOf,
  pkce,
  REDIRECT,
  registerNativeClient,
  resume,
  tokenRequest,
} from '@/tests/helpers/oauth';

const mailbox = useMailbox();
const PASSWORD = 'a long and unusual passphrase';
let accounts = 0;

async function signedInUser(): Promise<{ email: string; browser: Browser }> {
  const email = `rp-user-${(accounts += 1)}@example.test`;
  await signUpWithPassword(mailbox, email, PASSWORD);
  return { email, browser: await signInWithPassword(email, PASSWORD) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const getMe = (token: string) => call(operation('GET', '/api/v1/me'), { headers: { authorization: `Bearer ${token}` } });
const userinfo = (token: string) => call(operation('GET', '/oauth/userinfo'), { headers: { authorization: `Bearer ${token}` } });

/** Signs in, approves a request with these extra parameters and exchanges the code. */
async function issueTokens(authExtra: Record<string, string>, tokenExtra: Record<string, string> = {}) {
  const { browser } = await signedInUser();
  const clientId = await registerNativeClient();
  const { verifier, challenge } = pkce();
  const jar = new CookieJar(browser);
  const callback = await approve(jar, browser, authorizationParams(clientId, challenge, authExtra));
  const response = await exchangeCode(clientId, callback, verifier, tokenExtra);
  return { response, body: await response.json(), clientId, browser, jar };
}

describe('RFC 8707 resource indicators', () => {
  const mcp = () => `${getConfig().baseUrl}/mcp`;

  // ASVS V9.2.3, V9.2.4, V10.3.1
  it('issues a token for {base_url}/mcp whose audience is /mcp only: /api/v1 and userinfo refuse it', async () => {
    const { response, body } = await issueTokens({ scope: 'openid identity.profile.read', resource: mcp() }, { resource: mcp() });
    expect(response.status).toBe(200);
    expect(body.scope).toBe('identity.profile.read');
    const stored = await (await getProvider()).AccessToken.find(body.access_token);
    expect(stored?.aud).toBe(mcp());
    const refused = await getMe(body.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/invalid_token/);
    // The provider refuses it too (it carries no openid scope, and an audience userinfo does not accept).
    const info = await userinfo(body.access_token);
    expect([401, 403]).toContain(info.status);
    expect((await info.json()).error).toMatch(/invalid_token|insufficient_scope/);
  });

  it('keeps the granted resource when the token request does not repeat it', async () => {
    const { body } = await issueTokens({ scope: 'identity.profile.read', resource: mcp() });
    expect((await (await getProvider()).AccessToken.find(body.access_token))?.aud).toBe(mcp());
  });

  it('without resource issues the token for this API and userinfo', async () => {
    const { body } = await issueTokens({ scope: 'openid identity.profile.read' });
    expect((await (await getProvider()).AccessToken.find(body.access_token))?.aud).toBeUndefined();
    expect((await getMe(body.access_token)).status).toBe(200);
    expect((await userinfo(body.access_token)).status).toBe(200);
  });

  it('accepts the API itself as a resource ({base_url}, named in its protected-resource metadata)', async () => {
    const base = getConfig().baseUrl;
    const { body } = await issueTokens({ scope: 'identity.profile.read', resource: base }, { resource: base });
    expect((await (await getProvider()).AccessToken.find(body.access_token))?.aud).toBe(base);
    expect((await getMe(body.access_token)).status).toBe(200);
  });

  it('refuses an unknown resource at the authorization endpoint (invalid_target, for the registered redirect)', async () => {
    const clientId = await registerNativeClient();
    for (const resource of ['https://elsewhere.example/mcp', `${getConfig().baseUrl}/mcp/`]) {
      const response = await authorize(new CookieJar(), authorizationParams(clientId, pkce().challenge, { scope: 'identity.profile.read', resource }));
      const { answer, redirectUri } = await authorizationOutcome(response);
      expect(redirectUri).toBe(REDIRECT);
      expect(answer!.get('error'), resource).toBe('invalid_target');
      expect(answer!.get('code')).toBeNull();
    }
  });

  it('refuses a token request for another resource than the one granted', async () => {
    const { response, body } = await issueTokens({ scope: 'identity.profile.read', resource: mcp() }, { resource: getConfig().baseUrl });
    expect(response.status).toBe(400);
    expect(body.error).toBe('invalid_target');
  });
});

describe('the consent decision', () => {
  it('deny sends the person back with access_denied and no code; nothing is granted', async () => {
    const { browser } = await signedInUser();
    const clientId = await registerNativeClient();
    const jar = new CookieJar(browser);
    const started = await authorize(jar, authorizationParams(clientId, pkce().challenge, { scope: 'openid identity.email.read' }));
    const denied = await decideAs(browser, interactionOf(started), 'deny');
    expect(denied.status).toBe(200);
    const callback = await resume(jar, (await denied.json()).redirect_to);
    expect(`${callback.origin}${callback.pathname}`).toBe('http://127.0.0.1:50010/callback');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
    expect(callback.searchParams.get('state')).toBe('st');
    const consents = await call(operation('GET', '/api/auth/consents'), { headers: { cookie: browser.cookie } });
    expect((await consents.json()).consents).toEqual([]);
  });
});

describe('a request without scope', () => {
  it('asks for identity.profile.read, the documented default: no ID token, no refresh token', async () => {
    const { browser } = await signedInUser();
    const clientId = await registerNativeClient();
    const { verifier, challenge } = pkce();
    const jar = new CookieJar(browser);
    const started = await authorize(jar, authorizationParams(clientId, challenge));
    const context = await call(operation('GET', '/oauth/authorize/context'), { query: `interaction_id=${interactionOf(started)}` });
    expect((await context.json()).scopes).toEqual([{ scope: 'identity.profile.read', description: expect.any(String) }]);
    const decided = await decideAs(browser, interactionOf(started));
    const tokens = await (await exchangeCode(clientId, await resume(jar, (await decided.json()).redirect_to), verifier)).json();
    expect(tokens.scope).toBe('identity.profile.read');
    expect(tokens.id_token).toBeUndefined();
    expect(tokens.refresh_token).toBeUndefined();
    expect((await getMe(tokens.access_token)).status).toBe(200);
  });
});

describe('GET /oauth/authorize/context with the raw request parameters', () => {
  const context = (params: Record<string, string>) => call(operation('GET', '/oauth/authorize/context'), { query: new URLSearchParams(params).toString() });

  it('describes a valid request before any consent screen: client, redirect host, scopes, resource', async () => {
    const clientId = await registerNativeClient();
    const response = await context(
      authorizationParams(clientId, pkce().challenge, { scope: 'identity.api_keys.create offline_access', resource: `${getConfig().baseUrl}/mcp` }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ interaction_id: null, redirect_host: '127.0.0.1:50010', resource: `${getConfig().baseUrl}/mcp`, sign_in_after: null });
    expect(body.scopes.map((s: { scope: string }) => s.scope)).toEqual(['identity.api_keys.create', 'offline_access']);
  });

  it('accepts another loopback port for a native client (RFC 8252 §7.3)', async () => {
    const clientId = await registerNativeClient();
    expect((await context(authorizationParams(clientId, pkce().challenge, { redirect_uri: 'http://127.0.0.1:61234/callback' }))).status).toBe(200);
  });

  // ASVS V10.4.1
  it.each([
    ['an unknown client', { client_id: 'nobody' }, 'query.client_id'],
    ['an unregistered redirect URI', { redirect_uri: 'https://evil.example/callback' }, 'query.redirect_uri'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'query.code_challenge_method'],
    ['a malformed challenge', { code_challenge: 'short' }, 'query.code_challenge'],
    ['no challenge', { code_challenge: '' }, 'query.code_challenge'],
    ['the implicit flow', { response_type: 'token' }, 'query.response_type'],
    ['an unknown scope', { scope: 'openid admin' }, 'query.scope'],
    ['a foreign resource', { resource: 'https://elsewhere.example/mcp' }, 'query.resource'],
  ])('refuses %s with a 400 naming the field', async (_name, override, field) => {
    const clientId = await registerNativeClient();
    const params = { ...authorizationParams(clientId, pkce().challenge), ...override };
    const response = await context(Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '')));
    expect(response.status).toBe(400);
    const problem = await problemOf(response);
    expect(problem.code).toBe('invalid_request');
    expect((problem.errors as { path: string }[]).map((e) => e.path)).toContain(field);
  });
});

describe('prompt and max_age: re-authentication through the hosted sign-in', () => {
  // ASVS V7.6.1
  it('prompt=login needs a sign-in after the request; the ID token then carries the new auth_time', async () => {
    const { email, browser } = await signedInUser();
    const clientId = await registerNativeClient();
    const { verifier, challenge } = pkce();
    await sleep(1100);
    const jar = new CookieJar(browser);
    const started = await authorize(jar, authorizationParams(clientId, challenge, { scope: 'openid', prompt: 'login' }));
    const interactionId = interactionOf(started);
    const context = await (await call(operation('GET', '/oauth/authorize/context'), { query: `interaction_id=${interactionId}` })).json();
    expect(context.sign_in_after).not.toBeNull();

    const stale = await decideAs(browser, interactionId);
    expect(stale.status).toBe(401);
    expect((await problemOf(stale)).code).toBe('reauthentication_required');

    const fresh = await signInWithPassword(email, PASSWORD);
    const decided = await decideAs(fresh, interactionId);
    expect(decided.status).toBe(200);
    jar.set(fresh.cookie);
    const tokens = await (await exchangeCode(clientId, await resume(jar, (await decided.json()).redirect_to), verifier)).json();
    const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1], 'base64url').toString());
    expect(claims.auth_time * 1000).toBeGreaterThanOrEqual(new Date(context.sign_in_after).getTime() - 1000);
  });

  // ASVS V7.6.1
  it('max_age refuses a sign-in older than asked, and accepts a fresh one', async () => {
    const { email, browser } = await signedInUser();
    const clientId = await registerNativeClient();
    await sleep(2100);
    const started = await authorize(new CookieJar(browser), authorizationParams(clientId, pkce().challenge, { scope: 'openid', max_age: '1' }));
    const interactionId = interactionOf(started);
    expect((await decideAs(browser, interactionId)).status).toBe(401);
    expect((await decideAs(await signInWithPassword(email, PASSWORD), interactionId)).status).toBe(200);
  });
});

describe('our session is the only truth', () => {
  // ASVS V7.4.1, V10.7.1
  it('a live session of ours satisfies login for prompt=none; after sign-out it is login_required and session-bound tokens die', async () => {
    const { response, body, clientId, browser, jar } = await issueTokens({ scope: 'openid identity.profile.read' });
    expect(response.status).toBe(200);
    // Login is satisfied; native clients are still always asked to confirm (documented policy).
    const silent = await authorize(jar, authorizationParams(clientId, pkce().challenge, { scope: 'openid identity.profile.read', prompt: 'none' }));
    expect((await authorizationOutcome(silent)).answer!.get('error')).toBe('interaction_required');
    expect((await getMe(body.access_token)).status).toBe(200);

    const signedOut = await post('/api/auth/sessions/revoke', { session_id: browser.sessionId }, { headers: as(browser) });
    expect(signedOut.status).toBe(200);

    // Without offline_access the token lives with the sign-in it came from.
    expect((await getMe(body.access_token)).status).toBe(401);
    const refused = await authorize(jar, authorizationParams(clientId, pkce().challenge, { scope: 'openid identity.profile.read', prompt: 'none' }));
    const { answer } = await authorizationOutcome(refused);
    expect(answer!.get('error')).toBe('login_required');
    expect(answer!.get('code')).toBeNull();
  });

  // ASVS V7.6.1
  it('a new sign-in as the same person asks again instead of reusing the provider session of the old one', async () => {
    const { email, browser } = await signedInUser();
    const clientId = await registerNativeClient();
    const jar = new CookieJar(browser);
    await approve(jar, browser, authorizationParams(clientId, pkce().challenge, { scope: 'openid' }));
    await sleep(1100);
    jar.set((await signInWithPassword(email, PASSWORD)).cookie);
    const again = await authorize(jar, authorizationParams(clientId, pkce().challenge, { scope: 'openid', prompt: 'none' }));
    expect((await authorizationOutcome(again)).answer!.get('error')).toBe('login_required');
  });
});

describe('another person in the same browser', () => {
  it('gets a code for their own account: the earlier person’s provider session ends instead of a logout page we do not serve', async () => {
    const first = await signedInUser();
    const clientId = await registerNativeClient();
    const jar = new CookieJar(first.browser);
    await approve(jar, first.browser, authorizationParams(clientId, pkce().challenge, { scope: 'openid' }));
    // Someone else signs in on this browser; the provider's cookie still names the first person.
    const second = await signedInUser();
    jar.set(second.browser.cookie);
    const { verifier, challenge } = pkce();
    const callback = await approve(jar, second.browser, authorizationParams(clientId, challenge, { scope: 'openid' }));
    expect(callback.searchParams.get('code')).toBeTruthy();
    const tokens = await (await exchangeCode(clientId, callback, verifier)).json();
    const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1], 'base64url').toString());
    const me = await (await call(operation('GET', '/api/auth/session'), { headers: { cookie: second.browser.cookie } })).json();
    expect(claims.sub).toBe(me.user.id);
    // Each person has a consent of their own; the first person's grant was not extended by the second.
    const consentsOf = async (cookie: string) => (await (await call(operation('GET', '/api/auth/consents'), { headers: { cookie } })).json()).consents;
    const [mine] = await consentsOf(second.browser.cookie);
    expect(mine.client_id).toBe(clientId);
    expect((await consentsOf(first.browser.cookie)).map((c: { grant_id: string }) => c.grant_id)).not.toContain(mine.grant_id);
  });
});

describe('POST /oauth/revoke', () => {
  const revoke = (body: Record<string, string>, key?: string) =>
    call(operation('POST', '/oauth/revoke'), { body, headers: key ? { 'idempotency-key': key } : {} });

  it('takes JSON with an Idempotency-Key and revokes the token with its refresh-token family', async () => {
    // OIDC Core 11: offline_access is honoured with prompt=consent.
    const { body: tokens, clientId } = await issueTokens({ scope: 'openid offline_access identity.profile.read', prompt: 'consent' });
    expect(tokens.refresh_token).toBeTruthy();
    const missingKey = await revoke({ token: tokens.access_token, client_id: clientId });
    expect(missingKey.status).toBe(400);
    expect((await problemOf(missingKey)).code).toBe('idempotency_key_required');
    expect((await getMe(tokens.access_token)).status).toBe(200);

    const revoked = await revoke({ token: tokens.access_token, client_id: clientId }, 'revoke-1');
    expect(revoked.status).toBe(200);
    expect((await getMe(tokens.access_token)).status).toBe(401);
    const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect((await refresh.json()).error).toBe('invalid_grant');

    const replay = await revoke({ token: tokens.access_token, client_id: clientId }, 'revoke-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const reused = await revoke({ token: 'another-token', client_id: clientId }, 'revoke-1');
    expect(reused.status).not.toBe(422); // another token: another principal, so the key is free there
    expect(reused.status).toBe(200);
    const changed = await revoke({ token: tokens.access_token, client_id: clientId, token_type_hint: 'access_token' }, 'revoke-1');
    expect(changed.status).toBe(422);
  });

  it('still takes the standard RFC 7009 form without a key, and never revokes another client’s token', async () => {
    const { body: tokens } = await issueTokens({ scope: 'openid identity.profile.read' });
    const otherClient = await registerNativeClient();
    const form = (clientId: string) =>
      call(operation('POST', '/oauth/revoke'), {
        rawBody: new URLSearchParams({ token: tokens.access_token, client_id: clientId }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect((await form(otherClient)).status).toBe(200);
    expect((await getMe(tokens.access_token)).status).toBe(200);
  });
});

describe('authorization requests by form POST (OIDC Core 3.1.2.1)', () => {
  it('are served like the GET, also when posted cross-site by the relying party', async () => {
    const clientId = await registerNativeClient();
    const response = await callRoute('POST', '/oauth/authorize', {
      rawBody: new URLSearchParams(authorizationParams(clientId, pkce().challenge, { scope: 'openid' })).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://rp.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!, 'http://localhost');
    expect(location.pathname).toBe('/oauth/authorize');
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ client_id: clientId, scope: 'openid', code_challenge_method: 'S256' });
    const followed = await authorize(new CookieJar(), Object.fromEntries(location.searchParams));
    expect(followed.headers.get('location')).toMatch(/^\/consent\//);
  });

  it('while a decision form still needs our Origin, session and CSRF token', async () => {
    const response = await callRoute('POST', '/oauth/authorize', {
      rawBody: new URLSearchParams({ interaction_id: 'x', decision: 'approve' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://rp.example' },
    });
    expect(response.status).toBe(403);
    expect((await problemOf(response)).code).toBe('origin_mismatch');
  });
});

describe('the authorization endpoint', () => {
  it('takes cross-site navigations from relying parties', async () => {
    const clientId = await registerNativeClient();
    const response = await authorize(new CookieJar(), authorizationParams(clientId, pkce().challenge, { scope: 'openid' }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/^\/consent\//);
  });
});

describe('more than one instance', () => {
  it('serves one flow across two provider instances: state, cookie keys and signing keys live in Postgres', async () => {
    const { createProvider } = await import('@/lib/oidc/provider');
    const { runNodeHandler } = await import('@/lib/http/node-bridge');
    const other = await createProvider();
    const onOther = (request: Request, body = '') => runNodeHandler(other.callback() as never, request, Buffer.from(body), getConfig().origin, '127.0.0.1');

    const { browser } = await signedInUser();
    const clientId = await registerNativeClient();
    const { verifier, challenge } = pkce();
    const jar = new CookieJar(browser);
    const started = await authorize(jar, authorizationParams(clientId, challenge, { scope: 'openid identity.profile.read' }));
    const decided = await decideAs(browser, interactionOf(started));
    // The browser's next request lands on the other instance.
    const resumed = jar.store(
      await onOther(new Request(new URL((await decided.json()).redirect_to, getConfig().baseUrl), { headers: { cookie: jar.header() } })),
    );
    const callback = new URL(resumed.headers.get('location')!);
    expect(callback.searchParams.get('code')).toBeTruthy();
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: callback.origin + callback.pathname,
    });
    const token = await onOther(
      new Request(`${getConfig().baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      form.toString(),
    );
    const tokens = await token.json();
    expect(token.status).toBe(200);
    expect((await getMe(tokens.access_token)).status).toBe(200);
  });
});
