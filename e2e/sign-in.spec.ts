import { expect, test, type Page } from './support/test';
import { createPasswordAccount, PASSWORD, screenshots, uniqueEmail } from './support/journeys';
import { mailCount, waitForCode, waitForMail } from './support/mail-sink';

const passwordCard = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: 'With your password' }) });

/** One password attempt through the form; a failure clears the password field, which marks the answer. */
async function tryPassword(page: Page, email: string, password: string) {
  const card = passwordCard(page);
  await card.getByLabel('E-mail address', { exact: true }).fill(email);
  await card.getByLabel('Password', { exact: true }).fill(password);
  await card.getByRole('button', { name: 'Sign in with password' }).click();
}

async function failPassword(page: Page, email: string, password: string) {
  await tryPassword(page, email, password);
  await expect(passwordCard(page).getByLabel('Password', { exact: true })).toHaveValue('');
}

const PAUSE_NOTE = /Password sign-in pauses after 10 wrong passwords in a row/;

test.describe('sign-in help', () => {
  test('repeated wrong passwords: the page explains the pause and offers the ways that still work', async ({ page }) => {
    const email = uniqueEmail('paused');
    await createPasswordAccount(page.request, email);
    await page.goto('/sign-in');

    // One miss is just the generic failure: it says nothing about the account.
    await failPassword(page, email, 'wrong guess 1');
    await expect(passwordCard(page).getByRole('alert')).toHaveText('Check the e-mail address and password, or use another way to sign in.');
    await expect(page.getByText(PAUSE_NOTE)).toHaveCount(0);

    // After a few misses from this browser, the page explains the pause before it happens.
    await failPassword(page, email, 'wrong guess 2');
    await failPassword(page, email, 'wrong guess 3');
    await expect(page.getByText(PAUSE_NOTE)).toBeVisible();
    await expect(page.getByText(/for 15 minutes/)).toBeVisible();

    for (let i = 4; i <= 10; i++) await failPassword(page, email, `wrong guess ${i}`);
    expect((await waitForMail(email)).text).toMatch(/paused for 15 minutes/);

    // The right password during the pause: the same generic answer, and the explanation stays.
    await failPassword(page, email, PASSWORD);
    await expect(passwordCard(page).getByRole('alert')).toHaveText('Check the e-mail address and password, or use another way to sign in.');
    await expect(page.getByText(PAUSE_NOTE)).toBeVisible();
    await screenshots(page, 'sign-in-paused');

    // One click asks for a code to the address typed above; the code signs in.
    const before = mailCount(email);
    await page.getByRole('button', { name: 'E-mail me a code instead' }).click();
    await expect(page.getByText(`If an account uses ${email}, a sign-in code is on its way.`, { exact: false })).toBeVisible();
    await expect(page.getByLabel('Code', { exact: true })).toBeFocused();
    await page.getByLabel('Code', { exact: true }).fill(await waitForCode(email, before));
    await page.getByRole('button', { name: 'Sign in with code' }).click();
    await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
  });

  test('a spent rate limit is explained apart from the password pause', async ({ page }) => {
    // A real 429 here would spend the sign-in budget of every later journey in this run (they all come
    // from one address) for a minute; the API's 429 with Retry-After is proven in signin.int.test.ts.
    // This checks how the page reads that documented answer.
    await page.route('**/api/auth/signin/password', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/problem+json', 'retry-after': '45' },
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Too many requests',
          status: 429,
          code: 'rate_limited',
          detail: 'Try again in 45 seconds.',
          request_id: 'e2e',
        }),
      }),
    );
    await page.goto('/sign-in');
    await tryPassword(page, uniqueEmail('limited'), 'any password at all');
    await expect(passwordCard(page).getByRole('alert')).toHaveText('Too many sign-in attempts from here in a short time. Wait 45 seconds, then try again.');
    await expect(page.getByText(PAUSE_NOTE)).toBeVisible();
    await screenshots(page, 'sign-in-rate-limited');
  });

  test('validation messages appear alone, next to their field', async ({ page }) => {
    await page.goto('/sign-up');
    // The browser accepts a dotless domain; the API does not.
    await page.getByLabel('E-mail address').fill('ada@localhost');
    await page.getByRole('button', { name: 'Continue' }).click();
    const field = page.getByLabel('E-mail address');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription('Enter a valid e-mail address.');
    await expect(field).toBeFocused();
    await expect(page.getByRole('main')).not.toContainText('body.');
    await screenshots(page, 'sign-up-invalid-email');

    await page.goto('/sign-in');
    await tryPassword(page, 'ada@localhost', 'whatever it is');
    const email = passwordCard(page).getByLabel('E-mail address', { exact: true });
    await expect(email).toHaveAccessibleDescription('Enter a valid e-mail address.');
    await expect(page.getByRole('main')).not.toContainText('body.');
  });
});
