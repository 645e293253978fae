import { expect, test } from './support/test';
import { expectAccessible } from './support/axe';
import { uniqueEmail } from './support/journeys';
import { mailCount, waitForCode } from './support/mail-sink';
import { HOSTED_PAGES as PAGES, openConsent, signUpAndSignIn } from './support/site-journeys';

/**
 * axe-core over every hosted page, signed out and signed in, in both colour schemes. The journeys
 * (accounts, oidc) run the same check at their own steps; this walk makes sure no page is missed.
 * A new hosted page belongs in HOSTED_PAGES (e2e/support/site-journeys.ts).
 */

test.describe('accessibility (axe-core, WCAG 2.1 AA and best practices)', () => {
  test('every page, signed out', async ({ page }) => {
    test.setTimeout(90_000);
    for (const path of PAGES) {
      await page.goto(path);
      await expectAccessible(page, `${path} (signed out)`);
    }
  });

  // ASVS V7.4.4
  test('every page, signed in, and the consent screen of an OAuth request', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    await signUpAndSignIn(page, 'axe');
    for (const path of [...PAGES, '/account']) {
      await page.goto(path);
      await expect(page.getByRole('banner').getByRole('button', { name: 'Sign out' })).toBeVisible();
      await expectAccessible(page, `${path} (signed in)`);
    }
    await openConsent(page, baseURL!);
    await expectAccessible(page, 'consent');
  });

  test('the steps inside sign-up, recovery and e-mail code sign-in', async ({ page }) => {
    test.setTimeout(90_000);
    const email = uniqueEmail('axe-steps');
    await page.goto('/sign-up');
    let before = mailCount(email);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel('Verification code')).toBeVisible();
    await expectAccessible(page, 'sign-up: code step');
    await page.getByLabel('Verification code').fill(await waitForCode(email, before));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByLabel('New password')).toBeVisible();
    await expectAccessible(page, 'sign-up: choose a credential');
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Create account with password' }).click();
    await expectAccessible(page, 'sign-up: refused password');
    await page.getByLabel('New password').fill('a long enough passphrase for the check');
    await page.getByRole('button', { name: 'Create account with password' }).click();
    // The page finishes the sign-up by signing in with the new password, then opens the account.
    await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
    await expectAccessible(page, 'sign-up: done, signed in');
    await page.context().clearCookies();

    await page.goto('/recovery');
    before = mailCount(email);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel('Recovery code')).toBeVisible();
    await expectAccessible(page, 'recovery: code step');
    await page.getByLabel('Recovery code').fill(await waitForCode(email, before));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('button', { name: 'Create a new passkey' })).toBeVisible();
    await expectAccessible(page, 'recovery: choose a credential');

    await page.goto('/sign-in');
    before = mailCount(email);
    await page.getByLabel('E-mail address for a code').fill(email);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await expect(page.getByLabel('Code', { exact: true })).toBeVisible();
    await expectAccessible(page, 'sign-in: code step');
    await page.getByLabel('Code', { exact: true }).fill('000000');
    await page.getByRole('button', { name: 'Sign in with code' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
    await expectAccessible(page, 'sign-in: wrong code');
  });
});
