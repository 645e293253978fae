import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, signUpWithPassword, uniqueEmail } from './support/journeys';


test('an independent relying party discovers the provider over HTTP and fetches its keys', async ({ baseURL }) => {
  const config = await client.discovery(new URL(baseURL!), 'discovery-only', undefined, undefined, { execute: [client.allowInsecureRequests] });
  const metadata = config.serverMetadata();
  expect(metadata.issuer).toBe(baseURL);
  expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  expect(metadata.pushed_authorization_request_endpoint).toBeUndefined();
  const jwks = await (await fetch(metadata.jwks_uri!)).json();
  expect(jwks.keys.length).toBeGreaterThanOrEqual(2);
});

/** A loopback listener standing in for the native app's redirect URI (page.route cannot see it). */
async function callbackListener(): Promise<{ server: Server; url: string; next: () => Promise<URL> }> {
  const received: URL[] = [];
  const waiting: ((url: URL) => void)[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url!, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    res.end('You can close this window.');
    // The browser also asks for /favicon.ico: only the redirect URI itself is a callback.
    if (url.pathname !== '/callback') return;
    const waiter = waiting.shift();
    if (waiter) waiter(url);
    else received.push(url);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const next = () => (received.length ? Promise.resolve(received.shift()!) : new Promise<URL>((r) => waiting.push(r)));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, next };
}


test('authorization code + PKCE through the hosted sign-in and consent, then ID token, userinfo and the bearer API', async ({ page, baseURL }) => {
  const email = uniqueEmail('rp');
  await signUpWithPassword(page, email);
  const callback = await callbackListener();
  try {
    const issuer = new URL(baseURL!);
    const registered = await client.dynamicClientRegistration(
      issuer,
      {
        client_name: 'Journey CLI',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [callback.url],
      },
      undefined,
      { execute: [client.allowInsecureRequests] },
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const authorizationUrl = client.buildAuthorizationUrl(registered, {
      redirect_uri: callback.url,
      scope: 'openid email profile offline_access',
      prompt: 'consent',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });

    // No session yet: the hosted sign-in comes first, then the consent page.
    await page.goto(authorizationUrl.href);
    await expect(page).toHaveURL(/\/sign-in\?return_to=/);
    await page.getByLabel('E-mail address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in with password' }).click();
    await expect(page.getByRole('heading', { name: /Allow Journey CLI/ })).toBeVisible();
    await expect(page.getByText('See your e-mail address')).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/consent.png', fullPage: true });
    await page.getByRole('button', { name: 'Allow' }).click();

    const redirected = await callback.next();
    expect(redirected.searchParams.get('iss')).toBe(baseURL);
    const tokens = await client.authorizationCodeGrant(registered, redirected, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(baseURL);
    expect(claims.aud).toBe(registered.clientMetadata().client_id);
    expect(claims.sub).toEqual(expect.any(String));

    const userinfo = await client.fetchUserInfo(registered, tokens.access_token, claims.sub);
    expect(userinfo.email).toBe(email);

    const me = await fetch(new URL('/api/v1/me', baseURL), { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(email);

    // The code is single use, and a second use revokes what the first issued.
    await expect(client.authorizationCodeGrant(registered, redirected, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce })).rejects.toThrow();
    const afterCodeReuse = await fetch(new URL('/api/v1/me', baseURL), { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(afterCodeReuse.status).toBe(401);

    // Refresh tokens rotate; presenting a used one again revokes the whole family.
    const fresh = await consentAndExchange(page, registered, callback);
    expect(fresh.refresh_token).toEqual(expect.any(String));
    const rotated = await client.refreshTokenGrant(registered, fresh.refresh_token!);
    expect(rotated.refresh_token).not.toBe(fresh.refresh_token);
    await expect(client.refreshTokenGrant(registered, fresh.refresh_token!)).rejects.toThrow();
    await expect(client.refreshTokenGrant(registered, rotated.refresh_token!)).rejects.toThrow();
    const afterReuse = await fetch(new URL('/api/v1/me', baseURL), { headers: { authorization: `Bearer ${rotated.access_token}` } });
    expect(afterReuse.status).toBe(401);

    // While our session lives, a native client comes back to the consent page (never silently: any
    // app can claim a loopback redirect), without asking the person to sign in again...
    const revocable = await consentAndExchange(page, registered, callback);
    expect(await authorizeAgain(page, registered, callback.url)).toBe('consent');

    // Revocation (RFC 7009) ends a token and its refresh family.
    await client.tokenRevocation(registered, revocable.refresh_token!);
    await expect(client.refreshTokenGrant(registered, revocable.refresh_token!)).rejects.toThrow();

    // The consent is listed on /account; withdrawing it there ends the application's tokens.
    const listed = await consentAndExchange(page, registered, callback);
    await page.goto('/account');
    const connected = page.locator('section', { has: page.getByRole('heading', { name: 'Connected applications' }) });
    await expect(connected.getByText('Journey CLI')).toBeVisible();
    await connected.getByRole('button', { name: 'Remove access' }).click();
    await expect(connected.getByText('No application has access.')).toBeVisible();
    await expect(client.refreshTokenGrant(registered, listed.refresh_token!)).rejects.toThrow();

    // ...and once the person signs out, the provider session no longer counts: sign in first.
    await page.goto('/account');
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
    expect(await authorizeAgain(page, registered, callback.url)).toBe('sign-in');
  } finally {
    callback.server.close();
  }
});

/** Starts another authorization in the browser; tells which hosted page it lands on. */
async function authorizeAgain(page: Page, registered: client.Configuration, redirectUri: string): Promise<'consent' | 'sign-in' | string> {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(registered, {
    redirect_uri: redirectUri,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: client.randomState(),
  });
  await page.goto(url.href);
  const path = new URL(page.url()).pathname;
  return path === '/sign-in' ? 'sign-in' : path.startsWith('/consent/') ? 'consent' : path;
}

/** A full consent round (the grant was revoked, so the consent page asks again) and a code exchange. */
async function consentAndExchange(page: Page, registered: client.Configuration, callback: { url: string; next: () => Promise<URL> }) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(registered, {
    redirect_uri: callback.url,
    scope: 'openid email offline_access',
    prompt: 'consent',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  await page.goto(url.href);
  await page.getByRole('button', { name: 'Allow' }).click();
  return client.authorizationCodeGrant(registered, await callback.next(), { pkceCodeVerifier: verifier, expectedState: state });
}
