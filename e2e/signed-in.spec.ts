import { expect, test } from './support/test';
import { VirtualAuthenticator, withoutAutofill } from './support/authenticator';
import { createAccountWithPassword, screenshots, signUpWithPasskey, uniqueEmail } from './support/journeys';

test.describe('signed in, and just signed up', () => {
  // ASVS V14.3.1
  test('a password sign-up ends signed in; /sign-in then offers to continue or sign out', async ({ page }) => {
    const email = uniqueEmail('continue');
    await createAccountWithPassword(page, email);
    await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
    await expect(page.getByText(email).first()).toBeVisible();

    await page.goto('/sign-in?return_to=/docs');
    await expect(page.getByRole('button', { name: 'Sign in with password' })).toHaveCount(0);
    const onwards = page.getByRole('link', { name: `Continue as ${email}` });
    await expect(onwards).toHaveAttribute('href', '/docs');
    await screenshots(page, 'sign-in-signed-in');
    await page.goto('/sign-in');
    await expect(page.getByRole('link', { name: `Continue as ${email}` })).toHaveAttribute('href', '/account');

    // An application asking for a fresh sign-in (prompt=login) still gets the form.
    await page.goto('/sign-in?reauthenticate=1&return_to=/account');
    await expect(page.getByRole('heading', { name: 'Sign in again' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with password' })).toBeVisible();

    await page.goto('/sign-in?return_to=/docs');
    await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('button', { name: 'Sign in with password' })).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in\?return_to=%2Fdocs|\/sign-in\?return_to=\/docs/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
  });

  test('a sign-up started from a sign-in with return_to goes back there', async ({ page }) => {
    await page.goto('/sign-in?return_to=/docs');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(/\/sign-up\?return_to=/);
    await createAccountWithPassword(page, uniqueEmail('onwards'), page.url());
    await expect(page).toHaveURL(/\/docs$/);
  });

  test('after a passkey sign-up, the one primary button signs in with the new passkey', async ({ page }) => {
    await VirtualAuthenticator.attach(page);
    await withoutAutofill(page);
    const email = uniqueEmail('newpasskey');
    await signUpWithPasskey(page, email);
    const signIn = page.getByRole('button', { name: 'Sign in with your new passkey' });
    await expect(signIn).toBeVisible();
    await screenshots(page, 'sign-up-passkey-done');
    await signIn.click();
    await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
    await expect(page.getByText(email).first()).toBeVisible();
  });
});
