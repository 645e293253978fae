/** Sign-up steps shared by the journeys, driven through the hosted pages by their accessible names. */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { mailCount, waitForCode } from './mail-sink';
import { E2E_BASE_URL } from './ports';

let counter = 0;
export const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}${(counter += 1)}@example.test`;
export const PASSWORD = 'journey passphrase that is long enough';

async function startSignUp(page: Page, email: string, path = '/sign-up') {
  await page.goto(path);
  const before = mailCount(email);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Verification code').fill(await waitForCode(email, before));
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Ends on the success panel, not signed in yet: its one primary button signs in with the new passkey. */
export async function signUpWithPasskey(page: Page, email: string) {
  await startSignUp(page, email);
  await page.getByLabel('Your name (optional)').fill('Journey Tester');
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page.getByText('Your account is ready')).toBeVisible();
}

/** The page signs in with the password just set and lands where the sign-up was headed (the account page by default). */
export async function createAccountWithPassword(page: Page, email: string, path = '/sign-up') {
  await startSignUp(page, email, path);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account with password' }).click();
}

/** An account with a password, and the browser signed out again: for journeys that begin with a sign-in. */
export async function signUpWithPassword(page: Page, email: string) {
  await createAccountWithPassword(page, email);
  await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
}

/**
 * An account with a password, made through the documented enrollment API (as any client could) when
 * the sign-up pages are not what a journey is about. Not signed in.
 */
export async function createPasswordAccount(request: APIRequestContext, email: string) {
  const headers = { origin: E2E_BASE_URL };
  const before = mailCount(email);
  const started = await request.post('/api/auth/enrollment/start', { headers, data: { email } });
  expect(started.status()).toBe(202);
  const flow = { ...headers, 'x-enrollment-token': ((await started.json()) as { enrollment_token: string }).enrollment_token };
  expect((await request.post('/api/auth/enrollment/verify-email', { headers: flow, data: { code: await waitForCode(email, before) } })).status()).toBe(200);
  expect((await request.post('/api/auth/enrollment/password/complete', { headers: flow, data: { password: PASSWORD } })).status()).toBe(201);
}

/** A password account made through the API, then signed in on the hosted page (it lands on /account). */
export async function signedInWithPassword(page: Page, email: string) {
  await createPasswordAccount(page.request, email);
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
}

/** The console's first screen for someone without an organization: create one and wait for its sections. */
export async function createOrganizationInConsole(page: Page, name: string) {
  await page.goto('/console');
  await page.getByLabel('Organization name').fill(name);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByRole('navigation', { name: /sections$/ })).toBeVisible();
}

/** Screenshots for looking at a page: desktop (the configured viewport) and a 375 px wide phone. */
export async function screenshots(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: `test-results/screenshots/${name}-375.png`, fullPage: true });
  if (desktop) await page.setViewportSize(desktop);
}

/** An e-mail code sign-in: a session without a recent step-up, so sensitive changes ask for one. */
export async function signInWithCode(page: Page, email: string) {
  await page.goto('/sign-in');
  const before = mailCount(email);
  await page.getByLabel('E-mail address for a code').fill(email);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await page.getByLabel('Code', { exact: true }).fill(await waitForCode(email, before));
  await page.getByRole('button', { name: 'Sign in with code' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
}
