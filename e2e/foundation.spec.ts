import { expect, test, type Page } from './support/test';
import { expectAccessible } from './support/axe';
import { E2E_BASE_URL } from './support/ports';
import { HOSTED_PAGES, openConsent, signUpAndSignIn } from './support/site-journeys';

/** How far the page scrolls sideways, and every table whose cells are cut off inside its box. */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    tables: [...document.querySelectorAll('.table-wrap')]
      .filter((t) => t.scrollWidth > t.clientWidth)
      .map((t) => t.closest('[id]')?.id ?? t.textContent!.slice(0, 40)),
  }));
}

/** The header's items with their boxes, to tell which line each sits on: the brand, the site's areas, the account links. */
async function headerLines(page: Page) {
  return page.getByRole('banner').evaluate((banner) => {
    const boxOf = (el: Element) => {
      const box = el.getBoundingClientRect();
      return {
        text: el.textContent!.trim(),
        top: Math.round(box.top),
        bottom: Math.round(box.bottom),
        middle: Math.round(box.top + box.height / 2),
        right: box.right,
      };
    };
    return {
      brand: boxOf(banner.querySelector('nav > a')!),
      areas: [...banner.querySelectorAll('.site-areas a')].map(boxOf),
      account: [...banner.querySelectorAll('.site-account a, .site-account button')].map(boxOf),
    };
  });
}

/** Within 2 px of each other: on one line. */
const oneLine = (items: { middle: number }[]) => Math.max(...items.map((i) => i.middle)) - Math.min(...items.map((i) => i.middle)) <= 2;

test.describe('foundation pages', () => {
  test('home says what the service is and links to docs and status', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.headers()['x-request-id']).toBeTruthy();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Identity and access');
    await expect(page.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', '/docs');
    await expect(page.getByRole('link', { name: 'Status', exact: true }).first()).toBeVisible();
    // Built areas are links; areas that are not built yet are not dead links.
    await expect(page.getByRole('link', { name: 'Admin console' })).toHaveAttribute('href', '/console');
    await expect(page.getByRole('link', { name: 'Developer portal' })).toHaveAttribute('href', '/portal');
    await page.screenshot({ path: 'test-results/screenshots/home.png', fullPage: true });
    await expectAccessible(page);
  });

  test('status shows live readiness, capability and rehearsal evidence', async ({ page }) => {
    await page.goto('/status');
    await expect(page.getByRole('heading', { name: /Readiness/ })).toBeVisible();
    const database = page.getByRole('row', { name: /^database / });
    await expect(database).toContainText('pass');
    // The e2e server sends through a real SMTP sink, so mail is live.
    await expect(page.getByRole('row', { name: /Transactional e-mail/ })).toContainText('live');
    await expect(page.getByRole('heading', { name: /Launch rehearsal/ })).toContainText('no go');
    await page.screenshot({ path: 'test-results/screenshots/status.png', fullPage: true });
  });

  test('docs render the API reference and answer a help question', async ({ page }) => {
    await page.goto('/docs');
    await expect(page.getByRole('heading', { name: 'API reference' })).toBeVisible();
    await expect(page.locator('#getCapabilities')).toContainText('/api/v1/capabilities');
    // The scope table: each scope with its claims and the routes that take it.
    const scopes = page.locator('#scopes');
    await expect(scopes.getByRole('row', { name: /identity\.organization\.read/ })).toContainText('GET /api/v1/me/memberships');
    await scopes.screenshot({ path: 'test-results/screenshots/docs-scopes.png' });
    await page.getByLabel('Your question').fill('How does pagination work?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect(page.locator('.answer')).toContainText('next_cursor');
    await page.getByRole('link', { name: '/docs/versioning' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Versioning policy');
    await expect(page.locator('main')).toContainText('180 days');
  });

  test('every response carries X-Request-ID, including unknown pages and API paths', async ({ page, request }) => {
    const missingPage = await page.goto('/no-such-page');
    expect(missingPage?.status()).toBe(404);
    expect(missingPage?.headers()['x-request-id']).toBeTruthy();
    const missingApi = await request.get('/api/no-such-operation', { headers: { 'x-request-id': 'e2e-correlation-1' } });
    expect(missingApi.status()).toBe(404);
    expect(missingApi.headers()['x-request-id']).toBe('e2e-correlation-1');
    expect((await missingApi.json()).code).toBe('not_found');
    const missingProtocol = await request.get('/oauth/no-such-endpoint');
    expect(missingProtocol.status()).toBe(404);
    expect(missingProtocol.headers()['x-request-id']).toBeTruthy();
    const options = await request.fetch('/api/health', { method: 'OPTIONS' });
    expect(options.headers()['x-request-id']).toBeTruthy();
    const wrongVersion = await request.get('/api/v1/capabilities', { headers: { 'x-service-api-version': 'v9' } });
    expect(wrongVersion.status()).toBe(400);
    expect((await wrongVersion.json()).code).toBe('unsupported_api_version');
  });

  test('the help endpoint refuses a foreign Origin and rate-limits a client', async ({ request }) => {
    const foreign = await request.post('/api/docs/ask', { headers: { origin: 'https://evil.test' }, data: { question: 'hi' } });
    expect(foreign.status()).toBe(403);
    const statuses: number[] = [];
    // More than 2 x 20 x RATE_LIMIT_SCALE: a 429 must come even if the loop straddles a window boundary.
    for (let i = 0; i < 130; i++) {
      const response = await request.post('/api/docs/ask', { headers: { origin: E2E_BASE_URL }, data: { question: 'status?' } });
      statuses.push(response.status());
      if (response.status() === 429) {
        expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
        break;
      }
    }
    expect(statuses).toContain(429);
  });

  test('an unknown page answers 404 in the site layout, with a way home and the request id', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    const requestId = response!.headers()['x-request-id']!;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(page).toHaveTitle(/Page not found/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Identity Service' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: /home page/i })).toHaveAttribute('href', '/');
    await expect(page.getByRole('main')).toContainText(requestId);
    await page.screenshot({ path: 'test-results/screenshots/not-found.png', fullPage: true });
    await expectAccessible(page);
  });

  test('a favicon of our own, served from this origin', async ({ page, request }) => {
    await page.goto('/');
    const href = await page.locator('link[rel~="icon"][type="image/svg+xml"]').getAttribute('href');
    expect(href).toMatch(/^\/[^/]/);
    const icon = await request.get(href!);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
    // Browsers and feed readers that ignore <link rel=icon> still ask for /favicon.ico.
    const legacy = await request.get('/favicon.ico');
    expect(legacy.status()).toBe(200);
    expect(legacy.headers()['content-type']).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  });

  test('home and status count the capabilities the same way, matching the status table', async ({ page }) => {
    const sentence = /(\d+) capabilit(?:y|ies): ([^.]+)\./;
    const said = async () => sentence.exec((await page.getByText(sentence).first().textContent()) ?? '');
    await page.goto('/status');
    const onStatus = await said();
    expect(onStatus, 'the status page counts its capabilities').not.toBeNull();
    const badges = await page.getByRole('table', { name: 'Capabilities' }).locator('tbody tr .badge').allTextContents();
    const counted = new Map<string, number>();
    for (const badge of badges) counted.set(badge, (counted.get(badge) ?? 0) + 1);
    expect(Number(onStatus![1])).toBe(badges.length);
    const stated = new Map(onStatus![2]!.split(', ').map((part) => [part.replace(/^\d+ /, ''), Number(part.split(' ')[0])] as const));
    expect(stated).toEqual(counted);
    await page.goto('/');
    expect((await said())?.[0], 'home says what status says').toBe(onStatus![0]);
  });

  test('pages fit a phone screen, signed out and signed in, with the header in two tidy lines at most', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const check = async (width: number, paths: string[], state: string) => {
      await page.setViewportSize({ width, height: 740 });
      for (const path of paths) {
        await page.goto(path);
        const where = `${path} at ${width}px (${state})`;
        const overflow = await sidewaysOverflow(page);
        expect(overflow.page, `${where} scrolls sideways`).toBeLessThanOrEqual(0);
        expect(overflow.tables, `${where}: tables with cut-off cells`).toEqual([]);
        const { brand, areas, account } = await headerLines(page);
        // The brand and the account links (Account and Sign out, or Sign in and Sign up) share a line;
        // the areas (Docs, Status, ...) share one too: the brand's, or the one below it.
        expect(oneLine([brand, ...account]), `${where}: brand and account links on one line ${JSON.stringify(account)}`).toBe(true);
        expect(oneLine(areas), `${where}: the areas on one line ${JSON.stringify(areas)}`).toBe(true);
        expect(areas[0]!.middle === brand.middle || brand.bottom <= areas[0]!.top, `${where}: the areas beside the brand or below it`).toBe(true);
        for (const item of [brand, ...areas, ...account]) {
          expect(item.right, `${where}: ${item.text} inside the screen`).toBeLessThanOrEqual(width);
          expect(item.bottom - item.top, `${where}: ${item.text} on one line of text`).toBeLessThanOrEqual(48);
        }
      }
    };
    const pages = HOSTED_PAGES;
    await check(375, pages, 'signed out');
    await page.goto('/status');
    await page.screenshot({ path: 'test-results/screenshots/status-phone.png', fullPage: true });
    await check(1280, ['/'], 'signed out');

    await page.setViewportSize({ width: 1280, height: 740 });
    // A long address (shown on /account and the consent screen) must wrap, not push the page sideways.
    await signUpAndSignIn(page, 'phone.with.a.rather.long.address');
    await check(1280, ['/', '/account'], 'signed in');
    await check(375, [...pages, '/account'], 'signed in');
    for (const path of ['/account', '/docs', '/']) {
      await page.goto(path);
      await page.screenshot({ path: `test-results/screenshots/phone-signed-in${path.replace(/\//g, '-')}.png`, fullPage: path !== '/docs' });
    }
    await page.goto('/docs#reference');
    await page.screenshot({ path: 'test-results/screenshots/phone-docs-reference.png' });
    await openConsent(page, baseURL!);
    expect((await sidewaysOverflow(page)).page, 'consent scrolls sideways').toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/screenshots/phone-consent.png', fullPage: true });
  });
});
