/** Sign-up steps shared by the journeys, driven through the hosted pages by their accessible names. */
import { expect, type Page } from '@playwright/test';
import { mailCount, waitForCode } from './mail-sink';

let counter = 0;
export const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}${(counter += 1)}@example.test`;
export const PASSWORD = 'journey passphrase that is long enough';

async function startSignUp(page: Page, email: string) {
  await page.goto('/sign-up');
  const before = mailCount(email);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Verification code').fill(await waitForCode(email, before));
  await page.getByRole('button', { name: 'Verify' }).click();
}

export async function signUpWithPasskey(page: Page, email: string) {
  await startSignUp(page, email);
  await page.getByLabel('Your name (optional)').fill('Journey Tester');
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page.getByText('Your account is ready')).toBeVisible();
}

export async function signUpWithPassword(page: Page, email: string) {
  await startSignUp(page, email);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account with password' }).click();
  await expect(page.getByText('Your account is ready')).toBeVisible();
}
