import { expect, test, type Page } from './support/test';
import { expectAccessible } from './support/axe';
import { screenshots, signedInWithPassword, uniqueEmail } from './support/journeys';

/**
 * Deleting an account from /account: the request waits for review (nothing is deleted), the page
 * shows it as pending, and the person cancels it there.
 */
const section = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: 'Account deletion', exact: true }) });

test('a person asks for their account to be deleted, sees the pending request, and cancels it', async ({ page }) => {
  const email = uniqueEmail('leaving');
  await signedInWithPassword(page, email);

  const deletion = section(page);
  await deletion.getByLabel('Type DELETE_MY_ACCOUNT to confirm').fill('delete it');
  await deletion.getByRole('button', { name: 'Request account deletion' }).click();
  await expect(deletion.getByText('Type DELETE_MY_ACCOUNT to confirm.', { exact: true })).toBeVisible();
  await deletion.getByLabel('Type DELETE_MY_ACCOUNT to confirm').fill('DELETE_MY_ACCOUNT');
  await deletion.getByRole('button', { name: 'Request account deletion' }).click();
  await expect(deletion.getByRole('status')).toHaveText(/Your deletion request was received/);
  await expect(deletion).toContainText('It waits for review: nothing is deleted yet');

  // The pending request is still there after a reload: the page reads it from the service.
  await page.reload();
  await expect(section(page)).toContainText('nothing is deleted yet');
  await screenshots(page, 'account-deletion-pending');
  await expectAccessible(page, 'account: pending deletion');

  await section(page).getByLabel('Type CANCEL_DELETION to confirm').fill('CANCEL_DELETION');
  await section(page).getByRole('button', { name: 'Cancel deletion request' }).click();
  await expect(section(page).getByRole('status')).toHaveText(/was cancelled/);
  await expect(section(page).getByRole('button', { name: 'Request account deletion' })).toBeVisible();
});
