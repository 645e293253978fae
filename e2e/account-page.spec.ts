import { expect, test, type Browser, type Page } from './support/test';
import { VirtualAuthenticator, withoutAutofill } from './support/authenticator';
import { createPasswordAccount, PASSWORD, screenshots, signInWithCode, signUpWithPasskey, uniqueEmail } from './support/journeys';
import { E2E_BASE_URL } from './support/ports';

const section = (page: Page, heading: string) => page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true }) });

async function signInWithPassword(page: Page, email: string) {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
}

async function signInWithPasskey(page: Page) {
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
}

/** Another browser signed in to the account through the API; its request context keeps the cookie. */
async function elsewhere(browser: Browser, email: string) {
  const context = await browser.newContext();
  const response = await context.request.post(`${E2E_BASE_URL}/api/auth/signin/password`, {
    headers: { origin: E2E_BASE_URL },
    data: { email, password: PASSWORD },
  });
  expect(response.status()).toBe(201);
  return context;
}

const sessionCookie = async (page: Page) => (await page.context().cookies()).find((cookie) => cookie.name === 'session')?.value;

// "Chrome on Linux · 23 Nov 2026": the virtual authenticator's AAGUID is all zero, so the device names it.
const DEVICE_AND_DAY = /^Chrome on Linux · \d{1,2} [A-Z][a-z]{2,3} \d{4}$/;

test.describe('the account page', () => {
  test('passkeys are named after what holds them and the day; removing one asks first', async ({ page }) => {
    const first = await VirtualAuthenticator.attach(page);
    await withoutAutofill(page);
    await signUpWithPasskey(page, uniqueEmail('names'));
    await signInWithPasskey(page);
    const passkeys = section(page, 'Passkeys');
    await expect(passkeys.getByRole('listitem')).toHaveCount(1);
    expect(await passkeys.getByRole('listitem').locator('strong').first().textContent()).toMatch(DEVICE_AND_DAY);

    // A second passkey, from another authenticator (the first one is excluded by the ceremony).
    await first.remove();
    await VirtualAuthenticator.attach(page);
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(passkeys.getByRole('listitem')).toHaveCount(2);

    // Removal asks first; Escape or "Keep it" leaves the passkey alone and focus where it was.
    const row = passkeys.getByRole('listitem').first();
    const remove = row.getByRole('button', { name: 'Remove', exact: true });
    await remove.focus();
    await page.keyboard.press('Enter');
    const confirm = row.getByRole('group', { name: /Remove .+\?/ });
    await expect(confirm).toBeFocused();
    await screenshots(page, 'account-passkey-remove-confirm');
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(remove).toBeFocused();
    await remove.click();
    await row.getByRole('button', { name: 'Keep it' }).click();
    await expect(passkeys.getByRole('listitem')).toHaveCount(2);

    // Confirmed with the keyboard alone.
    await remove.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(row.getByRole('button', { name: 'Remove passkey' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(passkeys.getByRole('listitem')).toHaveCount(1);
    await expect(passkeys.getByRole('status')).toContainText('removed');
  });

  // ASVS V7.5.2, V7.2.4: ending other sessions asks to confirm it's you; the confirmation renews this browser's cookie.
  test('revoking another session and signing out everywhere else ask to confirm it is you', async ({ page, browser }) => {
    const email = uniqueEmail('sessions');
    await createPasswordAccount(page.request, email);
    const laptop = await elsewhere(browser, email);
    await signInWithCode(page, email);
    const sessions = section(page, 'Sessions');
    await expect(sessions.getByRole('listitem')).toHaveCount(2);

    // Revoking the other session asks first; after the password it continues on its own.
    const before = await sessionCookie(page);
    await sessions.getByRole('listitem').filter({ hasNotText: 'This session' }).getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
    await sessions.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Confirm with password' }).click();
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await expect(sessions.getByRole('status')).toContainText('Signed out');
    expect((await laptop.request.get(`${E2E_BASE_URL}/api/auth/session`)).status()).toBe(401);

    // The step-up gave this browser a new cookie; the old one is dead, the page keeps working.
    const after = await sessionCookie(page);
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    const stale = await browser.newContext();
    await stale.addCookies([{ name: 'session', value: before!, url: E2E_BASE_URL }]);
    expect((await stale.request.get(`${E2E_BASE_URL}/api/auth/session`)).status()).toBe(401);
    await page.reload();
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await expect(sessions.getByRole('button', { name: 'Sign out everywhere else' })).toHaveCount(0);

    // A fresh e-mail code sign-in (no step-up) with two other sessions: "Sign out everywhere else" asks too.
    const phone = await elsewhere(browser, email);
    await page.context().clearCookies();
    await signInWithCode(page, email);
    await expect(sessions.getByRole('listitem')).toHaveCount(3);
    await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
    await screenshots(page, 'account-sessions-step-up');
    await sessions.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Confirm with password' }).click();
    await expect(sessions.getByRole('status')).toHaveText('Signed out 2 other sessions.');
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    expect((await phone.request.get(`${E2E_BASE_URL}/api/auth/session`)).status()).toBe(401);
    await Promise.all([laptop.close(), phone.close(), stale.close()]);
  });

  test.describe('in Tokyo', () => {
    test.use({ timezoneId: 'Asia/Tokyo' });

    test('edits the profile: display name, language and time zone', async ({ page }) => {
      const email = uniqueEmail('profile');
      await createPasswordAccount(page.request, email);
      await signInWithPassword(page, email);
      // No more read-only "Display name: Not set": the profile is a form.
      await expect(page.locator('dd', { hasText: 'Not set' })).toHaveCount(0);
      const profile = section(page, 'Profile');
      const name = profile.getByLabel('Display name');
      const language = profile.getByLabel('Language');
      const zone = profile.getByLabel('Time zone');
      await expect(name).toHaveAttribute('autocomplete', 'name');
      await expect(language).toHaveAttribute('autocomplete', 'language');

      await name.fill('Ada Lovelace');
      await language.selectOption('en-GB');
      await profile.getByRole('button', { name: /Use this device.s time zone/ }).click();
      await expect(zone).toHaveValue('Asia/Tokyo');
      await profile.getByRole('button', { name: 'Save profile' }).click();
      await expect(profile.getByRole('status')).toHaveText('Profile saved.');
      await screenshots(page, 'account-profile');

      await page.reload();
      await expect(name).toHaveValue('Ada Lovelace');
      await expect(language).toHaveValue('en-GB');
      await expect(zone).toHaveValue('Asia/Tokyo');

      // Any IANA zone can be chosen from the list, and an empty name removes it.
      await zone.selectOption('Europe/Paris');
      await name.fill('');
      await profile.getByRole('button', { name: 'Save profile' }).click();
      await expect(profile.getByRole('status')).toHaveText('Profile saved.');
      await page.reload();
      await expect(name).toHaveValue('');
      await expect(zone).toHaveValue('Europe/Paris');
    });
  });
});
