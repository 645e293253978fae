import { expect, test, type Page } from './support/test';
import { Webhook } from 'standardwebhooks';
import { expectAccessible } from './support/axe';
import { createPasswordAccount, PASSWORD, signInWithCode, uniqueEmail } from './support/journeys';
import { E2E_BASE_URL } from './support/ports';
import { openPortalSection, portalNav, takeSecret } from './support/portal';
import { tabTo, widerThan } from './support/site-journeys';
import { startReceiver, type Receiver } from '../tests/helpers/webhook-receiver';

/**
 * The developer portal's journey, through the page: a developer signed in with an e-mail code (no
 * step-up yet) confirms it is them in place, registers a confidential application (secret shown
 * once, copied with the button), edits its redirects, rotates the secret and reads its certification;
 * creates an API key and calls the bearer API with it until it is revoked; subscribes a webhook to a
 * real HTTPS receiver on loopback, sends a test event and sees it delivered; disables the
 * application; reads the activity; then every section on a phone, by keyboard and under axe. One
 * story in one test: every step needs the ones before it.
 */

const SECTION_LABELS = ['Applications', 'APIs', 'API keys', 'Webhooks', 'Activity'];
const nav = portalNav;
const section = (page: Page, heading: string) => page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true, level: 2 }) });
const card = (page: Page, text: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: text, level: 3 }) });
/** For looking at, not committed. */
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });

const open = openPortalSection;

/** GET /api/v1/developer/api-keys from this test process, as a script would, with the key as the bearer credential. */
const listKeysWith = (apiKey: string) => fetch(`${E2E_BASE_URL}/api/v1/developer/api-keys`, { headers: { authorization: `Bearer ${apiKey}` } });

test.describe('the developer portal', () => {
  // A real HTTPS endpoint on loopback (the test-only certificate, which the e2e server trusts through OUTBOUND_CA_FILE).
  let receiver: Receiver;
  test.beforeAll(async () => {
    receiver = await startReceiver();
  });
  test.afterAll(async () => {
    await receiver.close();
  });

  test('a developer runs applications, API keys and webhooks from the portal', async ({ page }) => {
    test.setTimeout(180_000);
    const email = uniqueEmail('developer');
    await page.context().grantPermissions(['clipboard-write'], { origin: E2E_BASE_URL });
    // The site's Permissions-Policy denies clipboard-read (rightly), so the test cannot read the
    // clipboard back: it notes what the page writes there, and the real write still happens.
    await page.addInitScript(() => {
      const clipboard = navigator.clipboard;
      const write = clipboard.writeText.bind(clipboard);
      clipboard.writeText = async (text: string) => {
        (window as unknown as { copied: string }).copied = text;
        return write(text);
      };
    });

    await test.step('signed out, the portal explains and offers a sign-in that comes back to it', async () => {
      await page.goto('/portal');
      await expect(page.getByRole('heading', { name: 'Developer portal', level: 1 })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in?return_to=%2Fportal');
      await expectAccessible(page, '/portal (signed out)', ['light']);
    });

    await test.step('from the account page, the first call asks to confirm it is them, in place', async () => {
      await createPasswordAccount(page.request, email);
      await signInWithCode(page, email);
      await page.getByRole('link', { name: 'Developer portal' }).click();
      await expect(page).toHaveURL(/\/portal$/);
      const stepUp = page.getByRole('heading', { name: "Confirm it's you" });
      await expect(stepUp).toBeVisible();
      await expectAccessible(page, '/portal (step-up)');
      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Confirm with password' }).click();
      await expect(stepUp).toHaveCount(0);
      await expect(page.getByText('No applications yet: register one to get a client ID.')).toBeVisible();
      await expectAccessible(page, '/portal (no applications yet)');
    });

    let clientId = '';
    let firstSecret = '';
    await test.step('registering a confidential application shows its secret once, with a copy button', async () => {
      const form = page.getByRole('form', { name: 'Register an application' });
      await form.getByLabel('Application name').fill('Journey App');
      await expect(form.getByLabel('Client type')).toHaveValue('confidential');
      await form.getByLabel('Redirect URIs').fill('https://app.example.test/callback');
      // Anchored: the OpenID Connect name `profile` says in its hint that it stands for identity.profile.read.
      await form.getByRole('checkbox', { name: /^identity\.profile\.read/ }).check();
      // A scope that acts on the developer's account waits for an operator's review.
      await form.getByRole('checkbox', { name: /identity\.developer\.read/ }).check();
      await form.getByRole('button', { name: 'Register application' }).click();
      await expect(page.getByText('“Journey App” is registered.')).toBeVisible();
      clientId = (await page.locator('.one-time-secret .portal-id').textContent()) ?? '';
      expect(clientId).not.toBe('');
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect(page.getByText('Client secret copied to the clipboard.')).toBeVisible();
      const copied = await page.evaluate(() => (window as unknown as { copied: string }).copied);
      await expectAccessible(page, '/portal (client secret shown once)');
      await shot(page, 'portal-secret-1280');
      firstSecret = await takeSecret(page, 'Client secret');
      expect(copied).toBe(firstSecret);
      const app = card(page, 'Journey App');
      await expect(app).toContainText(clientId);
      await expect(app).toContainText('https://app.example.test/callback');
      await expect(app).toContainText('Certification:');
      const certification = app.locator('.portal-certification');
      await expect(certification).toContainText('Pending review');
      await expect(certification).toContainText('Approved scopes: openid, identity.profile.read');
      await expect(certification).toContainText('Pending scopes: identity.developer.read');
    });

    await test.step('the owner edits its redirects and rotates its secret', async () => {
      const app = card(page, 'Journey App');
      await app.getByRole('button', { name: 'Edit Journey App' }).click();
      const edit = page.getByRole('form', { name: 'Edit Journey App' });
      await edit.getByLabel('Redirect URIs').fill('https://app.example.test/callback\nhttp://127.0.0.1:8123/callback');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(section(page, 'Applications').getByRole('status').last()).toHaveText('“Journey App” saved.');
      await expect(card(page, 'Journey App')).toContainText('http://127.0.0.1:8123/callback');

      await card(page, 'Journey App').getByRole('button', { name: 'Rotate secret of Journey App' }).click();
      await expect(page.getByText('New client secret for “Journey App”.')).toBeVisible();
      const rotated = await takeSecret(page, 'Client secret');
      expect(rotated).not.toBe(firstSecret);
    });

    await test.step('an API key works from a script until it is revoked', async () => {
      await open(page, 'API keys');
      await expect(page.getByText('No API keys yet: create one above to call the developer API from a script.')).toBeVisible();
      const form = page.getByRole('form', { name: 'Create an API key' });
      await form.getByLabel('Key name').fill('journey script');
      await expect(form.getByRole('checkbox', { name: /identity\.developer\.read/ })).toBeChecked();
      await form.getByRole('button', { name: 'Create API key' }).click();
      await expect(page.getByRole('button', { name: 'Copy', exact: true })).toBeVisible();
      await expectAccessible(page, '/portal API keys (key shown once)');
      const apiKey = await takeSecret(page, 'API key');
      expect(apiKey).toMatch(/^idk_/);

      const listed = await listKeysWith(apiKey);
      expect(listed.status).toBe(200);
      const envelope = (await listed.json()) as { authentication: string; api_keys: { name: string }[] };
      expect(envelope.authentication).toBe('api_key');
      expect(envelope.api_keys.map((key) => key.name)).toEqual(['journey script']);
      await expect(card(page, 'journey script')).toContainText('Active');

      await card(page, 'journey script').getByRole('button', { name: 'Revoke journey script' }).click();
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await expect(section(page, 'API keys').getByRole('status').last()).toHaveText('API key “journey script” revoked.');
      await expect(card(page, 'journey script')).toContainText('Revoked');
      expect((await listKeysWith(apiKey)).status).toBe(401);
    });

    await test.step('a webhook receives a signed test event, and the delivery log says so', async () => {
      await open(page, 'Webhooks');
      await expect(page.getByText('No webhooks yet: add one to receive signed events at your endpoint.')).toBeVisible();
      const form = page.getByRole('form', { name: 'Add a webhook' });
      await form.getByLabel('Endpoint URL').fill(receiver.url);
      await form.getByRole('checkbox', { name: 'identity.application.disabled' }).check();
      await form.getByLabel('Description (optional)').fill('Journey receiver');
      await form.getByRole('button', { name: 'Add webhook' }).click();
      const secret = await takeSecret(page, 'Signing secret');
      expect(secret).toMatch(/^whsec_/);

      await page.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
      await expect(page.getByText('Test event queued: see it in the delivery log below.')).toBeVisible();
      const log = page.getByRole('region', { name: 'Deliveries' });
      // The worker sends on its own; "Refresh" reads the log again until it says so.
      await expect(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await expect(log.getByRole('row').filter({ hasText: 'identity.webhook.test' })).toContainText('Delivered', { timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
      await expect(log.getByRole('row').filter({ hasText: 'identity.webhook.test' }).locator('td[data-label="Attempts"]')).toHaveText('1');

      const delivery = receiver.received.find((item) => item.body.includes('identity.webhook.test'));
      expect(delivery, 'the receiver got the test event').toBeDefined();
      // The official verifier accepts the delivery with the secret shown once.
      expect(() => new Webhook(secret).verify(delivery!.body, delivery!.headers)).not.toThrow();

      await page.getByRole('button', { name: 'Process due deliveries' }).click();
      await expect(page.locator('.portal-deliveries').getByRole('status')).toHaveText(/queued for sending now|No deliveries were due/);
      await expectAccessible(page, '/portal webhooks (delivery log)');
    });

    await test.step('disabling the application asks in place, and a delivery goes to the webhook', async () => {
      await open(page, 'Applications');
      await card(page, 'Journey App').getByRole('button', { name: 'Disable Journey App' }).click();
      await expect(page.getByRole('group', { name: 'Disable “Journey App”?' })).toBeFocused();
      await expectAccessible(page, '/portal (disable confirmation)', ['light']);
      await page.getByRole('button', { name: 'Disable application' }).click();
      await expect(section(page, 'Applications').getByRole('status').last()).toHaveText('“Journey App” is disabled.');
      await expect(card(page, 'Journey App')).toContainText('Disabled');
      await expect(card(page, 'Journey App').getByRole('button', { name: 'Edit Journey App' })).toHaveCount(0);
      // The webhook subscribed to identity.application.disabled: the worker delivers it, signed.
      await expect.poll(() => receiver.received.filter((item) => item.body.includes('identity.application.disabled')).length, { timeout: 30_000 }).toBe(1);
    });

    await test.step('the activity lists what the developer did', async () => {
      await open(page, 'Activity');
      await expect(page.getByRole('region', { name: 'Activity events' }).getByRole('row').nth(1)).toBeVisible();
    });

    await test.step('every section: no sideways scroll at 390 px, reachable by keyboard, and axe-clean', async () => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 });
        for (const label of SECTION_LABELS) {
          await open(page, label);
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
            `${label} at ${width} px: ${await widerThan(page, width)}`,
          ).toBeLessThanOrEqual(width);
          await shot(page, `portal-${label.toLowerCase().replaceAll(' ', '-')}-${width}`);
          if (width === 390) await expectAccessible(page, `portal: ${label}`);
        }
      }

      // Keyboard only, from the top of the page: Tab reaches each section's link, Enter opens it.
      await page.goto('/portal');
      for (const label of SECTION_LABELS) {
        const link = nav(page).getByRole('link', { name: label, exact: true });
        await tabTo(page, link, label, 40);
        await page.keyboard.press('Enter');
        await expect(page.getByRole('heading', { name: label, level: 2, exact: true })).toBeVisible();
        await expect(link).toHaveAttribute('aria-current', 'page');
      }
    });
  });
});
