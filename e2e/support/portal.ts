import { expect, type Page } from './test';

/** The portal's section links. */
export const portalNav = (page: Page) => page.getByRole('navigation', { name: 'Portal sections' });

/** Opens a portal section by its nav link and waits for it to load. */
export async function openPortalSection(page: Page, label: string) {
  await portalNav(page).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { name: label, level: 2, exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

/** The one-time value in its read-only field; "I have saved it" then removes it from the page for good. */
export async function takeSecret(page: Page, label: string): Promise<string> {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toHaveValue(/\S{16,}/);
  const value = await field.inputValue();
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await expect(field).toHaveCount(0);
  return value;
}
