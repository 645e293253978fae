/**
 * Steps the site-wide checks (accessibility, security headers, phone layout) need to reach every
 * page state: a signed-in browser, and a pending OAuth request waiting on the consent page.
 */
import * as client from 'openid-client';
import { expect, type Locator, type Page } from '@playwright/test';
import { PASSWORD, signUpWithPassword, uniqueEmail } from './journeys';

/**
 * Every hosted page a visitor can open without a pending request: the site-wide checks (accessibility,
 * security headers, phone layout) walk them all, signed out and signed in. A new page belongs here.
 * (`/account` needs a session; the consent screen needs an OAuth request.)
 */
export const HOSTED_PAGES = [
  '/',
  '/status',
  '/docs',
  '/docs/versioning',
  '/sign-in',
  '/sign-up',
  '/recovery',
  '/console',
  '/portal',
  '/invitations/accept',
  '/no-such-page',
];

/** Creates an account through the hosted pages and signs the page in with its password. */
export async function signUpAndSignIn(page: Page, name = 'site'): Promise<string> {
  const email = uniqueEmail(name);
  await signUpWithPassword(page, email);
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  return email;
}

/**
 * Registers a native client and starts an authorization request in a signed-in page, which lands on
 * the consent screen. The redirect URI is never reached: nobody answers the decision.
 */
export async function openConsent(page: Page, baseURL: string, clientName = 'Site Check'): Promise<string> {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const registered = await client.dynamicClientRegistration(
    new URL(baseURL),
    {
      client_name: clientName,
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: [redirectUri],
    },
    undefined,
    { execute: [client.allowInsecureRequests] },
  );
  const url = client.buildAuthorizationUrl(registered, {
    redirect_uri: redirectUri,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state: client.randomState(),
  });
  await page.goto(url.href);
  await expect(page.getByRole('heading', { name: new RegExp(`Allow ${clientName}`) })).toBeVisible();
  return page.url();
}

/** What sticks out past `width` (for the failure message): the outermost such elements. */
export const widerThan = (page: Page, width: number) =>
  page.evaluate((limit) => {
    const wide = [...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > limit + 0.5);
    return wide
      .filter((element) => !wide.includes(element.parentElement!))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`)
      .join(', ');
  }, width);

/** Keyboard only: presses Tab until `target` has focus (at most `limit` times), as a person without a mouse would. */
export async function tabTo(page: Page, target: Locator, label: string, limit: number) {
  let tabs = 0;
  while (!(await target.evaluate((element) => element === document.activeElement))) {
    await page.keyboard.press('Tab');
    tabs += 1;
    expect(tabs, `Tab reaches ${label}`).toBeLessThan(limit);
  }
}
