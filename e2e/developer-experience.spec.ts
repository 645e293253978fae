import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';
import { expect, test, type Locator, type Page } from './support/test';
import { Webhook } from 'standardwebhooks';
import { expectAccessible } from './support/axe';
import { createPasswordAccount, PASSWORD, uniqueEmail } from './support/journeys';
import { mailCount, waitForCode } from './support/mail-sink';
import { E2E_BASE_URL } from './support/ports';
import { tabTo, widerThan } from './support/site-journeys';

/**
 * What a developer meets outside the consoles: the header's links (signed out and in, by keyboard, on
 * a phone), the docs' contents and the help answer to "how do I add sign-in to my Express app", and a
 * portal application's values to paste and quickstart (used here as a relying party would use them),
 * a webhook delivered to a plain-http receiver on this machine (the e2e server is local development),
 * the hidden username of password forms, and the console and the portal sharing one content width.
 */

/** For looking at, not committed. */
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: `test-results/screenshots/dx-${name}.png`, fullPage });
const banner = (page: Page) => page.getByRole('banner');
const card = (page: Page, name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, level: 3 }) });
const noSidewaysScroll = async (page: Page, where: string) => {
  const width = page.viewportSize()!.width;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  // What sticks out is looked for only when something does: walking every element is slow on /docs.
  if (scrollWidth > width) expect(scrollWidth, `${where}: ${await widerThan(page, width)}`).toBeLessThanOrEqual(width);
};
const inView = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= -1 && box.top < window.innerHeight;
  });

async function signInWithPassword(page: Page, email: string) {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
}

/** The value of one fact of an application card (its `dt` names it). */
const fact = (app: Locator, name: string) =>
  app.locator('.portal-facts > div', { has: app.page().locator('dt', { hasText: new RegExp(`^${name}$`) }) }).locator('dd');

/** The password managers' hint: a hidden, read-only username field with the account's address. */
const usernameOf = (form: Locator) => form.locator('input[autocomplete="username"][readonly]');

test.describe('developer experience outside the consoles', () => {
  test('the header offers the areas and the account links, signed out and in, by keyboard and on a phone', async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 800 });

    await test.step('signed out: Docs and Status, Sign in and Sign up; the home page offers Sign up too', async () => {
      await page.goto('/');
      const header = banner(page);
      for (const [name, href] of [
        ['Docs', '/docs'],
        ['Status', '/status'],
        ['Sign in', '/sign-in'],
        ['Sign up', '/sign-up'],
      ] as const) {
        await expect(header.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
      }
      await expect(header.getByRole('link', { name: 'Console', exact: true })).toHaveCount(0);
      await expect(header.getByRole('link', { name: 'Portal', exact: true })).toHaveCount(0);
      await expect(page.getByRole('main').getByRole('link', { name: 'Sign up', exact: true })).toHaveAttribute('href', '/sign-up');
      await shot(page, 'home-signed-out-1280');
    });

    const email = uniqueEmail('header');
    await test.step('sign-up: the password step names the verified address for password managers', async () => {
      await page.getByRole('main').getByRole('link', { name: 'Sign up', exact: true }).click();
      const before = mailCount(email);
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Verification code').fill(await waitForCode(email, before));
      await page.getByRole('button', { name: 'Verify' }).click();
      const form = page.locator('form', { has: page.getByLabel('New password') });
      await expect(usernameOf(form)).toHaveValue(email);
      await expect(usernameOf(form)).toBeHidden();
      await page.getByLabel('New password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account with password' }).click();
      await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
    });

    await test.step('signed in: Console and Portal join the areas; the current one is marked', async () => {
      const header = banner(page);
      for (const [name, href] of [
        ['Docs', '/docs'],
        ['Status', '/status'],
        ['Console', '/console'],
        ['Portal', '/portal'],
        ['Account', '/account'],
      ] as const) {
        await expect(header.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
      }
      await expect(header.getByRole('button', { name: 'Sign out' })).toBeVisible();
      await expect(header.getByRole('link', { name: 'Account', exact: true })).toHaveAttribute('aria-current', 'page');
      await header.getByRole('link', { name: 'Portal', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Developer portal', level: 1 })).toBeVisible();
      await expect(banner(page).getByRole('link', { name: 'Portal', exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(banner(page).getByRole('link', { name: 'Account', exact: true })).not.toHaveAttribute('aria-current', 'page');
    });

    await test.step('the account page’s password form names the account for password managers', async () => {
      await page.goto('/account');
      const form = page.locator('form', { has: page.getByLabel('Current password') });
      await expect(usernameOf(form)).toHaveValue(email);
    });

    await test.step('by keyboard, from the top of the page: Tab reaches Console, Enter opens it', async () => {
      await page.goto('/');
      const consoleLink = banner(page).getByRole('link', { name: 'Console', exact: true });
      await tabTo(page, consoleLink, 'Console in the header', 8);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/console$/);
      await expectAccessible(page, '/console (header, signed in)', ['light']);
    });

    await test.step('at 390 px: the brand with Account and Sign out, the four areas on the line below, all of them finger-sized', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/');
      await noSidewaysScroll(page, 'home at 390 px');
      const header = banner(page);
      const boxOf = async (locator: Locator) => (await locator.boundingBox())!;
      const brand = await boxOf(header.getByRole('link', { name: 'Identity Service' }));
      const signOut = await boxOf(header.getByRole('button', { name: 'Sign out' }));
      const account = await boxOf(header.getByRole('link', { name: 'Account', exact: true }));
      expect(Math.abs(account.y + account.height / 2 - (brand.y + brand.height / 2))).toBeLessThanOrEqual(2);
      expect(Math.abs(signOut.y + signOut.height / 2 - (brand.y + brand.height / 2))).toBeLessThanOrEqual(2);
      const areas = await Promise.all(['Docs', 'Status', 'Console', 'Portal'].map((name) => boxOf(header.getByRole('link', { name, exact: true }))));
      for (const area of areas) {
        expect(area.y, 'the areas below the brand').toBeGreaterThanOrEqual(brand.y + brand.height - 1);
        expect(Math.abs(area.y - areas[0]!.y), 'the areas on one line').toBeLessThanOrEqual(2);
        expect(area.height, 'a finger-sized link').toBeGreaterThanOrEqual(44);
        expect(area.x + area.width).toBeLessThanOrEqual(390);
      }
      await header.screenshot({ path: 'test-results/screenshots/dx-header-390.png' });
      await shot(page, 'home-signed-in-390');
      await expectAccessible(page, '/ (signed in, 390 px)');
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto('/');
      await banner(page).screenshot({ path: 'test-results/screenshots/dx-header-1280.png' });
      await shot(page, 'home-signed-in-1280');
    });
  });

  test('docs: the contents lead to each section, on a wide screen and a phone; the help finds the Express quickstart', async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/docs');
    const contents = page.getByRole('navigation', { name: 'Contents' });
    await expect(contents).toBeVisible();
    await expect(page.getByRole('main')).not.toContainText('Enrollment never issues a session');
    await expect(page.locator('#accounts')).toContainText('The hosted sign-up page (/sign-up) ends signed in');

    for (const [label, id] of [
      ['Add sign-in to your app (Node.js, Express)', 'quickstart'],
      ['Webhooks and their signatures', 'webhooks'],
      ['API reference', 'reference'],
    ]) {
      await contents.getByRole('link', { name: label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`#${id}$`));
      expect(await inView(page.locator(`#${id}`)), `${label} scrolled into view`).toBe(true);
      await expect(contents, 'the contents stay in view beside the text').toBeInViewport();
    }
    await shot(page, 'docs-1280', false);
    await expectAccessible(page, '/docs (contents)');

    await test.step('the help answers a new developer’s first question from the quickstart', async () => {
      await page.getByLabel('Your question').fill('How do I add sign in to my Express app?');
      await page.getByRole('button', { name: 'Ask' }).click();
      await expect(page.locator('.answer')).toContainText('openid-client');
      const sources = page.locator('#ask .hint').filter({ hasText: 'Sources:' }).getByRole('link');
      await expect(sources.first()).toHaveText('Add sign-in to your app (Node.js, Express)');
      await expect(sources.first()).toHaveAttribute('href', '/docs#quickstart');
    });

    await test.step('at 390 px: a Contents disclosure, closed until opened, that leads to a section', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/docs');
      await noSidewaysScroll(page, '/docs at 390 px');
      const disclosure = page.locator('details', { has: page.getByText('Contents', { exact: true }) });
      await expect(page.getByRole('navigation', { name: 'Contents' })).toBeHidden();
      await shot(page, 'docs-390-top', false);
      await disclosure.getByText('Contents', { exact: true }).click();
      const phoneContents = page.getByRole('navigation', { name: 'Contents' });
      await expect(phoneContents).toBeVisible();
      await shot(page, 'docs-390-contents-open', false);
      await expectAccessible(page, '/docs (390 px, contents open)');
      await phoneContents.getByRole('link', { name: 'Tokens: codes, refresh and revocation', exact: true }).click();
      await expect(page).toHaveURL(/#tokens$/);
      expect(await inView(page.locator('#tokens'))).toBe(true);
    });
  });

  test.describe('the portal', () => {
    // A plain-http receiver on this machine, as a developer runs one beside the service.
    let receiver: Server;
    const received: { headers: Record<string, string>; body: string }[] = [];
    test.beforeAll(async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push({
            headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
            body: Buffer.concat(chunks).toString('utf8'),
          });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });
    test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

    test('an application shows what to paste and a quickstart that works; webhooks reach this machine', async ({ page }) => {
      test.setTimeout(150_000);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.context().grantPermissions(['clipboard-write'], { origin: E2E_BASE_URL });
      // The Permissions-Policy denies clipboard-read: note what the page writes (the real write still happens).
      await page.addInitScript(() => {
        const clipboard = navigator.clipboard;
        const write = clipboard.writeText.bind(clipboard);
        clipboard.writeText = async (text: string) => {
          (window as unknown as { copied: string }).copied = text;
          return write(text);
        };
      });
      const copied = () => page.evaluate(() => (window as unknown as { copied: string }).copied);
      const email = uniqueEmail('quickstart');
      await createPasswordAccount(page.request, email);
      await signInWithPassword(page, email);

      // Signed in with a password just now, which counts as a step-up: the portal does not ask again.
      await page.goto('/portal');
      await expect(page.getByRole('heading', { name: 'Applications', level: 2 })).toBeVisible();

      let clientId = '';
      let secret = '';
      const redirectUri = 'http://127.0.0.1:9/callback';
      await test.step('register an application with the OpenID Connect scopes profile and email', async () => {
        const form = page.getByRole('form', { name: 'Register an application' });
        await form.getByLabel('Application name').fill('Express Shop');
        await form.getByLabel('Redirect URIs').fill(redirectUri);
        const signInScopes = form.getByRole('group', { name: 'Sign-in scopes it may request (OpenID Connect)' });
        await expect(signInScopes.getByRole('checkbox', { name: /^openid/ })).toBeChecked();
        await signInScopes.getByRole('checkbox', { name: /^profile/ }).check();
        await signInScopes.getByRole('checkbox', { name: /^email/ }).check();
        await expect(signInScopes).toContainText('the OpenID Connect name for identity.email.read');
        await form.getByRole('button', { name: 'Register application' }).click();
        await expect(page.getByText('“Express Shop” is registered.')).toBeVisible();
        secret = await page.getByLabel('Client secret', { exact: true }).inputValue();
        await page.getByRole('button', { name: 'I have saved it' }).click();
        clientId = (await fact(card(page, 'Express Shop'), 'Client ID').locator('code').textContent()) ?? '';
        expect(clientId).toMatch(/\S{8,}/);
      });

      const app = card(page, 'Express Shop');
      await test.step('the card shows issuer, discovery URL, client ID and redirect URI, each with a Copy button', async () => {
        const discoveryUrl = `${E2E_BASE_URL}/.well-known/openid-configuration`;
        for (const [label, value] of [
          ['issuer', E2E_BASE_URL],
          ['discovery URL', discoveryUrl],
          ['client ID', clientId],
          [`redirect URI ${redirectUri}`, redirectUri],
        ] as const) {
          await expect(app).toContainText(value);
          await app.getByRole('button', { name: `Copy ${label}`, exact: true }).click();
          expect(await copied(), `Copy ${label}`).toBe(value);
        }
        await expect(app.getByRole('status').filter({ hasText: 'Copied' }).first()).toBeVisible();
        await expect(app.locator('.portal-certification')).toContainText('Approved scopes: openid, profile, email');
      });

      await test.step('the Node.js quickstart is written for this application', async () => {
        await app.getByText('Node.js quickstart (Express, openid-client)').click();
        const code = app.getByRole('region', { name: 'Node.js quickstart for Express Shop' });
        await expect(code).toBeVisible();
        for (const part of [clientId, 'openid profile email', redirectUri, 'client.ClientSecretBasic(process.env.CLIENT_SECRET)', 'authorizationCodeGrant']) {
          await expect(code).toContainText(part);
        }
        await expect(code).not.toContainText(secret);
        await app.getByRole('button', { name: 'Copy quickstart code', exact: true }).click();
        expect(await copied()).toContain(`'${clientId}'`);
        await shot(page, 'portal-application-1280');
        await expectAccessible(page, '/portal (application with quickstart)');
      });

      await test.step('the pasted values configure a relying party that reaches this application’s consent page', async () => {
        const issuer = await fact(app, 'Issuer').locator('code').textContent();
        const config = await client.discovery(new URL(issuer!), clientId, undefined, client.ClientSecretBasic(secret), {
          execute: [client.allowInsecureRequests],
        });
        const url = client.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: 'openid profile email',
          code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
          code_challenge_method: 'S256',
          state: client.randomState(),
        });
        await page.goto(url.href);
        await expect(page.getByRole('heading', { name: /Allow Express Shop/ })).toBeVisible();
      });

      await test.step('at 390 px the application card fits the screen', async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto('/portal');
        await expect(card(page, 'Express Shop')).toBeVisible();
        await noSidewaysScroll(page, '/portal at 390 px');
        await card(page, 'Express Shop').getByText('Node.js quickstart (Express, openid-client)').click();
        await noSidewaysScroll(page, '/portal at 390 px, quickstart open');
        await shot(page, 'portal-application-390');
        await expectAccessible(page, '/portal (390 px, quickstart open)');
        await page.setViewportSize({ width: 1280, height: 800 });
      });

      // Local development is on only for the embedded database (lib/config; on PostgreSQL it cannot be
      // switched on), so the server under test follows one of the two rules: the one it follows is checked.
      if (process.env.DATABASE_URL) {
        await test.step('webhooks on PostgreSQL: no local-development note, and a loopback receiver is refused', async () => {
          await page.goto('/portal?section=webhooks');
          const form = page.getByRole('form', { name: 'Add a webhook' });
          await expect(form).toBeVisible();
          await expect(page.getByRole('note')).toHaveCount(0);
          await form.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`);
          await form.getByRole('checkbox', { name: 'identity.user.updated' }).check();
          await form.getByRole('button', { name: 'Add webhook' }).click();
          await expect(form.getByText('The endpoint must be an https:// URL.')).toBeVisible();
          await expect(page.getByLabel('Signing secret', { exact: true })).toHaveCount(0);
          expect(received).toHaveLength(0);
        });
      } else
        await test.step('webhooks: the local-development note, and a test event delivered to http://127.0.0.1', async () => {
          await page.goto('/portal?section=webhooks');
          const note = page.getByRole('note');
          await expect(note).toContainText('Local development:');
          await expect(note).toContainText('Private networks and cloud metadata addresses are still refused');
          const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
          const form = page.getByRole('form', { name: 'Add a webhook' });
          await form.getByLabel('Endpoint URL').fill(url);
          await form.getByRole('checkbox', { name: 'identity.user.updated' }).check();
          await form.getByRole('button', { name: 'Add webhook' }).click();
          const signing = await page.getByLabel('Signing secret', { exact: true }).inputValue();
          await page.getByRole('button', { name: 'I have saved it' }).click();
          await page.getByRole('button', { name: `Send test event to ${url}` }).click();
          await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
          expect(() => new Webhook(signing).verify(received[0]!.body, received[0]!.headers)).not.toThrow();
          await shot(page, 'portal-webhooks-local-1280');
          await expectAccessible(page, '/portal webhooks (local development note)', ['light']);
        });

      await test.step('the console and the portal give their sections the same width', async () => {
        const sectionWidth = async () => (await page.locator('.console-section').boundingBox())!.width;
        // With the quickstart open: its long lines must not widen the portal's column.
        await page.goto('/portal');
        await card(page, 'Express Shop').getByText('Node.js quickstart (Express, openid-client)').click();
        const portal = await sectionWidth();
        await page.goto('/console');
        await page.getByLabel('Organization name').fill('Width Works');
        await page.getByRole('button', { name: 'Create organization' }).click();
        await expect(page.getByRole('navigation', { name: /sections$/ })).toBeVisible();
        expect(Math.abs((await sectionWidth()) - portal), `console ${await sectionWidth()} px, portal ${portal} px`).toBeLessThanOrEqual(1);
      });
    });

    test('the step-up panel names the account for password managers', async ({ page }) => {
      const email = uniqueEmail('stepup');
      await createPasswordAccount(page.request, email);
      // An e-mail code sign-in has no step-up: the portal's first call asks for one.
      await page.goto('/sign-in');
      const before = mailCount(email);
      await page.getByLabel('E-mail address for a code').fill(email);
      await page.getByRole('button', { name: 'E-mail me a code' }).click();
      await page.getByLabel('Code', { exact: true }).fill(await waitForCode(email, before));
      await page.getByRole('button', { name: 'Sign in with code' }).click();
      await expect(page.getByRole('heading', { name: 'Your account', exact: true })).toBeVisible();
      await page.goto('/portal');
      const panel = page.getByRole('region', { name: "Confirm it's you" });
      await expect(panel).toBeVisible();
      await expect(usernameOf(panel.locator('form'))).toHaveValue(email);
    });
  });

  test.describe('the dev mailbox page', () => {
    // The e2e server sends mail over SMTP, so it has no mailbox to show (e2e/development-surfaces.spec.ts
    // checks its 404). This one is the README's first command: no configuration at all, so local
    // development with the dev mailbox, on the same build.
    let server: ChildProcess;
    let origin = '';
    let dataDir = '';
    test.beforeAll(async () => {
      test.setTimeout(90_000); // a production start, migrations included, on a shared machine
      // Without this runner's FORCE_COLOR, which would colour the number the script prints.
      const port = execFileSync(process.execPath, [path.resolve(__dirname, '../scripts/free-port.mjs')], {
        encoding: 'utf8',
        env: { ...process.env, FORCE_COLOR: '0' },
      }).trim();
      origin = `http://localhost:${port}`;
      dataDir = mkdtempSync(path.join(tmpdir(), 'idsvc-dev-mail-'));
      server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', port], {
        // Nothing of this runner's environment: only what a shell has, as in the README's first command.
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATA_DIR: dataDir, PASSWORD_PBKDF2_ITERATIONS: '1000' },
        // Its output goes to a file beside the other results, for when it does not start.
        stdio: ['ignore', openSync(path.join(dataDir, 'server.log'), 'w'), openSync(path.join(dataDir, 'server.log'), 'a')],
      });
      const log = () => readFileSync(path.join(dataDir, 'server.log'), 'utf8');
      const up = await expect
        .poll(
          () =>
            fetch(`${origin}/api/health`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 60_000 },
        )
        .toBe(200)
        .then(
          () => true,
          () => false,
        );
      expect(up, `the server did not start:\n${up ? '' : log()}`).toBe(true);
    });
    test.afterAll(() => {
      server.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('lists the newest mail decoded, codes whole and links clickable', async ({ page }) => {
      test.setTimeout(90_000);
      const post = (path: string, body: unknown) =>
        fetch(`${origin}${path}`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post('/api/auth/enrollment/start', { email: 'ada@example.test' })).status).toBe(202);
      // No account uses this address: the mail links to the sign-up page.
      expect((await post('/api/auth/recovery/start', { email: 'nobody.with.a.long.address@example.test' })).status).toBe(202);

      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${origin}/dev/mail`);
        await expect(page.getByRole('heading', { name: 'Dev mailbox', level: 1 })).toBeVisible();
        const messages = page.getByRole('article');
        await expect(messages).toHaveCount(2);
        // Newest first: the recovery note, then the verification code.
        await expect(messages.first().getByRole('heading', { level: 2 })).toHaveText('No account uses this address');
        await expect(messages.first().getByRole('link', { name: `${origin}/sign-up` })).toHaveAttribute('href', `${origin}/sign-up`);
        await expect(messages.nth(1).getByRole('heading', { level: 2 })).toHaveText(/^\d{6} is your verification code$/);
        await expect(messages.nth(1).locator('dd').first()).toHaveText('ada@example.test');
        await noSidewaysScroll(page, `/dev/mail at ${width} px`);
        await page.screenshot({ path: `test-results/screenshots/dx-dev-mail-${width}.png`, fullPage: true });
        await expectAccessible(page, `/dev/mail (${width} px)`);
      }
    });
  });
});
