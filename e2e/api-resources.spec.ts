import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { expect, test } from './support/test';
import { expectAccessible } from './support/axe';
import { callbackListener } from './support/callback-listener';
import { signedInWithPassword, uniqueEmail } from './support/journeys';
import { openPortalSection, takeSecret } from './support/portal';
import { widerThan } from './support/site-journeys';

/**
 * A developer's own API, end to end: registered in the portal with two permissions, one of them
 * granted to a confidential application as machine access; this test then gets a machine token with
 * openid-client's client credentials grant, and a person consents to the API on the hosted page. An
 * independent resource server (jose against the published JWKS) accepts both tokens for the API.
 */
test('a developer registers an API, grants a machine client one permission, and a person consents to the other', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const identifier = `https://orders-${Date.now().toString(36)}.example.test/v1`;
  const callback = await callbackListener();
  const jwks = createRemoteJWKSet(new URL('/.well-known/jwks.json', baseURL));
  try {
    // A password sign-in is also the fresh step-up the portal's changes ask for.
    await signedInWithPassword(page, uniqueEmail('api-owner'));
    await page.goto('/portal');

    let clientId = '';
    let secret = '';
    await test.step('a confidential application to act as the machine client and the relying party', async () => {
      const form = page.getByRole('form', { name: 'Register an application' });
      await form.getByLabel('Application name').fill('Orders Backend');
      await form.getByLabel('Redirect URIs').fill(callback.url);
      await form.getByRole('button', { name: 'Register application' }).click();
      await expect(page.getByText('“Orders Backend” is registered.')).toBeVisible();
      clientId = (await page.locator('.one-time-secret .portal-id').textContent()) ?? '';
      secret = await takeSecret(page, 'Client secret');
    });

    await test.step('the API with two permissions, and machine access to one of them', async () => {
      await openPortalSection(page, 'APIs');
      const form = page.getByRole('form', { name: 'Register an API' });
      await form.getByLabel('Identifier', { exact: true }).fill(identifier);
      await form.getByLabel('API name', { exact: true }).fill('Orders API');
      await form.getByLabel('Permissions', { exact: true }).fill('orders:read Read your orders\norders:write Place and change your orders');
      await form.getByRole('checkbox', { name: /Applications may get tokens without a person/ }).check();
      await form.getByRole('button', { name: 'Register API' }).click();
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Orders API', level: 3 }) });
      await expect(card).toContainText(identifier);
      await expect(card).toContainText('Place and change your orders');

      const grant = card.getByRole('form', { name: 'Grant machine access to Orders API' });
      await grant.getByLabel('Application').selectOption({ label: 'Orders Backend' });
      await grant.getByRole('checkbox', { name: /orders:read/ }).check();
      await grant.getByRole('button', { name: 'Grant machine access' }).click();
      await expect(card.getByRole('status').filter({ hasText: 'Orders Backend may now use orders:read.' })).toBeVisible();
      await expect(card.getByRole('button', { name: 'Remove machine access of Orders Backend' })).toBeVisible();

      // The API's own backend may introspect its tokens: the owner names it in the API's settings.
      await card.getByRole('button', { name: 'Edit Orders API' }).click();
      const edit = page.getByRole('form', { name: 'Edit Orders API' });
      await edit.getByLabel('Resource server', { exact: true }).selectOption({ label: 'Orders Backend' });
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(card).toContainText('Orders Backend (may introspect its tokens)');
      await page.screenshot({ path: 'test-results/screenshots/portal-apis.png', fullPage: true });
      await expectAccessible(page, '/portal?section=apis');
      // On a phone the API's card and its forms fit the screen.
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), await widerThan(page, 375)).toBeLessThanOrEqual(375);
      await page.screenshot({ path: 'test-results/screenshots/portal-apis-375.png', fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    const rp = await client.discovery(new URL(baseURL!), clientId, secret, client.ClientSecretBasic(secret), { execute: [client.allowInsecureRequests] });

    await test.step('the machine client gets a JWT for the API with only what it was granted', async () => {
      const tokens = await client.clientCredentialsGrant(rp, { scope: 'orders:read orders:write', resource: identifier });
      expect(tokens.scope).toBe('orders:read');
      expect(tokens.refresh_token).toBeUndefined();
      const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: baseURL, audience: identifier, typ: 'at+jwt' });
      expect(payload).toMatchObject({ sub: clientId, client_id: clientId, scope: 'orders:read' });
    });

    await test.step('a person consents to the API on a page that names it and describes the permission', async () => {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const authorizationUrl = client.buildAuthorizationUrl(rp, {
        redirect_uri: callback.url,
        scope: 'openid orders:write',
        resource: identifier,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      await page.goto(authorizationUrl.href);
      await expect(page.getByRole('heading', { name: 'Allow Orders Backend to access your account?' })).toBeVisible();
      await expect(page.getByText('Place and change your orders')).toBeVisible();
      await expect(page.getByText(/These permissions are for Orders API/)).toContainText(identifier);
      await page.screenshot({ path: 'test-results/screenshots/consent-api.png', fullPage: true });
      await expectAccessible(page, 'consent (an API)');
      await page.getByRole('button', { name: 'Allow' }).click();

      const tokens = await client.authorizationCodeGrant(rp, await callback.next(), { pkceCodeVerifier: verifier, expectedState: state });
      const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: baseURL, audience: identifier, typ: 'at+jwt' });
      expect(payload).toMatchObject({ client_id: clientId, scope: 'orders:write' });
      expect(payload.sub).not.toBe(clientId);
    });
  } finally {
    callback.server.close();
  }
});
