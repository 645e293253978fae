import * as client from 'openid-client';
import { expect, test, type Page } from './support/test';
import { expectAccessible } from './support/axe';
import { callbackListener } from './support/callback-listener';
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

// ASVS V9.2.4, V10.4.2, V10.4.5, V10.4.9, V10.7.2
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
    // ASVS V10.4.7, V10.7.2: a self-registered client is shown as unverified, with the host the code goes to.
    await expect(page.getByRole('note')).toContainText('has not checked who runs this application');
    await expect(page.locator('.lead')).toContainText(`the access is sent to ${new URL(callback.url).host}`);
    await page.screenshot({ path: 'test-results/screenshots/consent.png', fullPage: true });
    await expectAccessible(page, 'consent');
    await page.getByRole('button', { name: 'Allow' }).click();

    const redirected = await callback.next();
    expect(redirected.searchParams.get('iss')).toBe(baseURL);
    const tokens = await client.authorizationCodeGrant(registered, redirected, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
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
    await expect(
      client.authorizationCodeGrant(registered, redirected, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce }),
    ).rejects.toThrow();
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

// ASVS V10.7.2
test('an MCP client: resource indicator, default scope, audience-bound token; then prompt=login asks for a fresh sign-in', async ({ page, baseURL }) => {
  const email = uniqueEmail('mcp');
  await signUpWithPassword(page, email);
  const callback = await callbackListener();
  try {
    // Start where an MCP client starts: the protected resource's metadata (RFC 9728).
    const metadata = await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', baseURL))).json();
    expect(metadata.resource).toBe(`${baseURL}/mcp`);
    const issuer = new URL(metadata.authorization_servers[0]);
    const registered = await client.dynamicClientRegistration(
      issuer,
      {
        client_name: 'Journey MCP',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [callback.url],
      },
      undefined,
      { execute: [client.allowInsecureRequests] },
    );

    // No scope at all: the documented default (identity.profile.read) is asked for.
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    await page.goto(
      client.buildAuthorizationUrl(registered, {
        redirect_uri: callback.url,
        resource: metadata.resource,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      }).href,
    );
    await page.getByLabel('E-mail address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in with password' }).click();
    await expect(page.getByRole('heading', { name: /Allow Journey MCP/ })).toBeVisible();
    await expect(page.getByText('See your name, language and time zone')).toBeVisible();
    await expect(page.getByText(`For use with ${metadata.resource}`)).toBeVisible();
    await page.getByRole('button', { name: 'Allow' }).click();
    const tokens = await client.authorizationCodeGrant(
      registered,
      await callback.next(),
      { pkceCodeVerifier: verifier, expectedState: state },
      { resource: metadata.resource },
    );
    expect(tokens.scope).toBe('identity.profile.read');
    // Audience-bound to /mcp: this service's own API refuses it.
    const me = await fetch(new URL('/api/v1/me', baseURL), { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(401);

    // prompt=login: the live session is not enough, the person signs in again first. (Request times
    // have whole-second precision: let the first sign-in fall into an earlier second.)
    await page.waitForTimeout(1100);
    const before = Math.floor(Date.now() / 1000);
    const loginVerifier = client.randomPKCECodeVerifier();
    const loginState = client.randomState();
    const nonce = client.randomNonce();
    await page.goto(
      client.buildAuthorizationUrl(registered, {
        redirect_uri: callback.url,
        scope: 'openid',
        prompt: 'login',
        code_challenge: await client.calculatePKCECodeChallenge(loginVerifier),
        code_challenge_method: 'S256',
        state: loginState,
        nonce,
      }).href,
    );
    await expect(page.getByRole('heading', { name: 'Sign in again' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/sign-in-again.png', fullPage: true });
    await expectAccessible(page, 'sign in again');
    await page.getByLabel('E-mail address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in with password' }).click();
    await expect(page.getByRole('heading', { name: /Allow Journey MCP/ })).toBeVisible();
    await page.getByRole('button', { name: 'Allow' }).click();
    const fresh = await client.authorizationCodeGrant(registered, await callback.next(), {
      pkceCodeVerifier: loginVerifier,
      expectedState: loginState,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(fresh.claims()!.auth_time).toBeGreaterThanOrEqual(before);
  } finally {
    callback.server.close();
  }
});

/** Requests the page made to any origin other than the service and the loopback callback. */
function foreignRequests(page: Page, baseURL: string): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const origin = new URL(request.url()).origin;
    if (origin !== baseURL && !origin.startsWith('http://127.0.0.1:')) foreign.push(request.url());
  });
  return foreign;
}

// ASVS V14.2.3
test('an untrusted client’s error lands on our page, where the person decides whether to go back; no third-party origin', async ({ page, baseURL }) => {
  const foreign = foreignRequests(page, baseURL!);
  const callback = await callbackListener();
  try {
    const registered = await client.dynamicClientRegistration(
      new URL(baseURL!),
      {
        client_name: 'Journey Stranger',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [callback.url],
      },
      undefined,
      { execute: [client.allowInsecureRequests] },
    );
    const state = client.randomState();
    const silent = client.buildAuthorizationUrl(registered, {
      redirect_uri: callback.url,
      scope: 'openid',
      prompt: 'none',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state,
    });
    // A link on some other site: prompt=none, nobody signed in. Before, the browser went straight on.
    const authorizeResponse = page.waitForResponse((response) => response.url().startsWith(`${baseURL}/oauth/authorize`));
    await page.goto(silent.href);
    const requestId = (await authorizeResponse).headers()['x-request-id'];
    await expect(page).toHaveURL(/\/oauth\/error\?error=login_required/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign-in needed' })).toBeVisible();
    const host = new URL(callback.url).host;
    await expect(page.getByRole('heading', { name: `Journey Stranger wants to send you back to ${host}` })).toBeVisible();
    await expect(page.getByText(requestId!, { exact: true })).toBeVisible();
    await expectAccessible(page, 'OAuth error page with a way back');
    await page.screenshot({ path: 'test-results/screenshots/oauth-error-return.png', fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: 'test-results/screenshots/oauth-error-return-375.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(callback.received).toEqual([]);

    // The person chooses to go back: the application gets its error response, state and issuer.
    await page.getByRole('link', { name: `Continue to ${host}` }).click();
    const back = await callback.next();
    expect(back.searchParams.get('error')).toBe('login_required');
    expect(back.searchParams.get('state')).toBe(state);
    expect(back.searchParams.get('iss')).toBe(baseURL);

    // Signing in first (/sign-in?return_to=...) changes nothing: the request still ends here.
    const email = uniqueEmail('chain');
    await signUpWithPassword(page, email);
    await page.goto(`/sign-in?return_to=${encodeURIComponent(`${silent.pathname}${silent.search}`)}`);
    await page.getByLabel('E-mail address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in with password' }).click();
    await expect(page).toHaveURL(/\/oauth\/error\?/);
    await expect(page.getByRole('heading', { name: `Journey Stranger wants to send you back to ${host}` })).toBeVisible();
    expect(callback.received).toEqual([]);

    // An error with no way back (unknown client): our page, in our layout, with the request id.
    await page.goto('/oauth/authorize?client_id=nobody-registered-this&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2Fcb');
    await expect(page.getByRole('heading', { level: 1, name: 'Unknown application' })).toBeVisible();
    await expect(page.getByText('Request id')).toBeVisible();
    await expect(page.getByRole('link', { name: /Continue to/ })).toHaveCount(0);
    await page.screenshot({ path: 'test-results/screenshots/oauth-error.png', fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: 'test-results/screenshots/oauth-error-375.png', fullPage: true });
    const pageResponse = await page.request.get('/oauth/error?error=invalid_client');
    expect(pageResponse.headers()['x-request-id']).toBeTruthy();
    expect(foreign).toEqual([]);
  } finally {
    callback.server.close();
  }
});
