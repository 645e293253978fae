import { expect, test, type Page } from './support/test';
import { allowAutofill, VirtualAuthenticator, withoutAutofill } from './support/authenticator';
import { expectAccessible } from './support/axe';
import { PASSWORD, signInWithCode, signUpWithPasskey, signUpWithPassword, uniqueEmail } from './support/journeys';
import { mailCount, waitForCode, waitForMail } from './support/mail-sink';

async function signInWithPassword(page: Page, email: string) {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
}

async function signOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
}

test.describe('accounts', () => {
  test('sign up with a passkey, sign out, sign in with the passkey by button and by autofill', async ({ page }) => {
    // Three ceremonies and three accessibility sweeps of whole pages (each in both colour schemes).
    test.setTimeout(60_000);
    const authenticator = await VirtualAuthenticator.attach(page);
    await withoutAutofill(page);
    const email = uniqueEmail('passkey');
    await signUpWithPasskey(page, email);
    expect(await authenticator.credentialCount()).toBe(1);
    await page.screenshot({ path: 'test-results/screenshots/sign-up-done.png', fullPage: true });
    await expectAccessible(page);

    await page.goto('/sign-in');
    await page.screenshot({ path: 'test-results/screenshots/sign-in.png', fullPage: true });
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/account.png', fullPage: true });
    await expectAccessible(page);
    await signOut(page);

    // Conditional UI: the passkey request waits with the page; choosing the e-mail field offers it.
    await allowAutofill(page);
    await page.goto('/sign-in');
    // Chromium's virtual authenticator may answer the waiting request before the field is even
    // focused; either way no button was pressed, so the passkey came through autofill.
    await page
      .getByLabel('E-mail address', { exact: true })
      .focus({ timeout: 5_000 })
      .catch(() => undefined);
    await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible({ timeout: 15_000 });
  });

  test('sign up with a password and sign in with it', async ({ page }) => {
    const email = uniqueEmail('password');
    await signUpWithPassword(page, email);
    await signInWithPassword(page, email);
    await expect(page.getByText(email)).toBeVisible();
  });

  test('sign in with an e-mail code', async ({ page }) => {
    const email = uniqueEmail('code');
    await signUpWithPassword(page, email);
    await signInWithCode(page, email);
    await expect(page.getByText(email)).toBeVisible();
  });

  test('step up, then perform a sensitive action', async ({ page }) => {
    const authenticator = await VirtualAuthenticator.attach(page);
    await withoutAutofill(page);
    const email = uniqueEmail('stepup');
    await signUpWithPassword(page, email);
    // An e-mail code sign-in carries no step-up, so adding a passkey asks for one.
    await signInWithCode(page, email);

    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const stepUp = page.getByRole('region', { name: "Confirm it's you" });
    await expect(stepUp).toBeVisible();
    await expectAccessible(page, 'account step-up');
    await stepUp.getByLabel('Current password').fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm with password' }).click();
    await expect(stepUp).toBeHidden();
    await expect.poll(() => authenticator.credentialCount()).toBe(1);
  });

  // ASVS V6.2.3: the current password beside the new one; it also serves as the stale step-up.
  test('change the password: the current one is required and nobody is asked twice', async ({ page }) => {
    const email = uniqueEmail('change');
    await signUpWithPassword(page, email);
    await signInWithCode(page, email);

    const section = page.getByRole('region', { name: 'Password', exact: true });
    await section.getByLabel('Current password').fill('not my password at all');
    await section.getByLabel('New password').fill('a changed passphrase for the journey');
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByText('This is not your current password.')).toBeVisible();
    await expect(section.getByLabel('Current password')).toBeFocused();

    await section.getByLabel('Current password').fill(PASSWORD);
    await section.getByLabel('New password').fill('a changed passphrase for the journey');
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByText('Your password was changed.')).toBeVisible();
    await expect(page.getByRole('region', { name: "Confirm it's you" })).toHaveCount(0);
  });

  test('recover an account with a replacement passkey', async ({ page }) => {
    const lost = await VirtualAuthenticator.attach(page);
    await withoutAutofill(page);
    const email = uniqueEmail('recover');
    await signUpWithPasskey(page, email);
    await lost.remove();
    const replacement = await VirtualAuthenticator.attach(page);

    await page.goto('/recovery');
    const before = mailCount(email);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Recovery code').fill(await waitForCode(email, before));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Create a new passkey' }).click();
    await expect(page.getByText('Your account is recovered')).toBeVisible();
    expect((await waitForMail(email)).text).toMatch(/recovered with a new passkey/);
    expect(await replacement.credentialCount()).toBe(1);

    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByText(email)).toBeVisible();
  });

  test('revoke another session from the account page', async ({ browser }) => {
    const email = uniqueEmail('sessions');
    const laptop = await browser.newPage();
    await signUpWithPassword(laptop, email);
    await signInWithPassword(laptop, email);
    const phone = await browser.newPage();
    await signInWithPassword(phone, email);

    await laptop.reload();
    const sessions = laptop.getByRole('region', { name: 'Sessions' }).or(laptop.locator('section', { has: laptop.getByRole('heading', { name: 'Sessions' }) }));
    await sessions.getByRole('button', { name: 'Revoke' }).first().click();
    await expect(sessions.getByRole('button', { name: 'Revoke' })).toHaveCount(0);

    await phone.reload();
    await expect(phone).toHaveURL(/\/sign-in\?return_to=%2Faccount|\/sign-in\?return_to=\/account/);
  });

  test('a bogus assertion signature and a missing user verification are rejected', async ({ page }) => {
    const authenticator = await VirtualAuthenticator.attach(page);
    await withoutAutofill(page);
    const email = uniqueEmail('negative');
    await signUpWithPasskey(page, email);
    for (const bits of [{ isBogusSignature: true }, { isBadUV: true }]) {
      await authenticator.override(bits);
      await page.goto('/sign-in');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    }
    await authenticator.override({});
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  });
});
