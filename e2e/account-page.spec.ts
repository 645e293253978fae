import { expect, test, type Page } from '@playwright/test';
import { VirtualAuthenticator, withoutAutofill } from './support/authenticator';
import { createPasswordAccount, PASSWORD, screenshots, signUpWithPasskey, uniqueEmail } from './support/journeys';

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
