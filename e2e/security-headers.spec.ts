import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from './support/test';
import { VirtualAuthenticator, withoutAutofill } from './support/authenticator';
import { signUpWithPasskey, uniqueEmail } from './support/journeys';
import { HOSTED_PAGES as PAGES, openConsent, signUpAndSignIn } from './support/site-journeys';

/** Parses a Content-Security-Policy header into directive -> sources. */
function directives(header: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), sources);
  }
  return map;
}

/** Collects what the browser reports about our policies: CSP violations and Permissions-Policy parse errors. */
function policyComplaints(page: Page): string[] {
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Permissions-Policy|Permissions Policy/i.test(message.text())) complaints.push(`${page.url()}: ${message.text()}`);
  });
  return complaints;
}

/** A page on another port of the same site (ports do not make another site), framing `target`. */
async function framingSite(): Promise<{ server: Server; url: (target: string) => string }> {
  const server = createServer((req, res) => {
    const target = new URL(req.url!, 'http://localhost').searchParams.get('target') ?? '';
    res.setHeader('content-type', 'text/html');
    res.end(
      `<!doctype html><title>Prize</title><h1>Click to win</h1><iframe id="victim" src="${target.replace(/"/g, '&quot;')}" width="800" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: (target) => `http://localhost:${port}/?target=${encodeURIComponent(target)}` };
}

test.describe('security headers', () => {
  // ASVS V14.2.3
  test('every page sends a nonce-based CSP and the other browser policies', async ({ request }) => {
    const nonces = new Set<string>();
    for (const path of PAGES) {
      const response = await request.get(path);
      const headers = response.headers();
      const csp = directives(headers['content-security-policy']);
      expect(csp.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(csp.get('object-src'), path).toEqual(["'none'"]);
      expect(csp.get('base-uri'), path).toEqual(["'none'"]);
      expect(csp.get('form-action'), path).toEqual(["'self'"]);
      expect(csp.get('default-src'), path).toEqual(["'self'"]);
      const scripts = csp.get('script-src') ?? [];
      expect(scripts, path).toContain("'strict-dynamic'");
      const nonce = scripts.find((s) => s.startsWith("'nonce-"));
      expect(nonce, path).toBeTruthy();
      nonces.add(nonce!);
      // Nothing inline without a nonce, and no origin other than our own anywhere.
      for (const [name, sources] of csp) {
        expect(sources, `${path} ${name}`).not.toContain("'unsafe-inline'");
        expect(sources, `${path} ${name}`).not.toContain("'unsafe-eval'");
        expect(
          sources.filter((s) => /^(https?:|\*|data:|blob:)/.test(s)),
          `${path} ${name}`,
        ).toEqual([]);
      }
      // Next's own scripts carry the nonce, or the page could not hydrate.
      const html = await response.text();
      expect(html, path).toContain(`nonce="${nonce!.slice(7, -1)}"`);
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      expect(headers['cross-origin-opener-policy'], path).toBe('same-origin');
      expect(headers['x-frame-options'], path).toBe('DENY');
      const permissions = headers['permissions-policy'] ?? '';
      for (const denied of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()']) expect(permissions, path).toContain(denied);
      for (const allowed of ['publickey-credentials-get=(self)', 'publickey-credentials-create=(self)']) expect(permissions, path).toContain(allowed);
      // http://localhost: no HSTS (a browser ignores it over http, and it would pin localhost).
      expect(headers['strict-transport-security'], path).toBeUndefined();
    }
    expect(nonces.size, 'a fresh nonce per response').toBe(PAGES.length);
  });

  test('API, protocol and static answers are never framed or sniffed', async ({ request }) => {
    for (const path of ['/api/health', '/api/v1/capabilities', '/api/no-such-operation', '/oauth/no-such-endpoint', '/.well-known/openid-configuration']) {
      const response = await request.get(path);
      const headers = response.headers();
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(directives(headers['content-security-policy']).get('frame-ancestors'), path).toEqual(["'none'"]);
    }
    const api = directives((await request.get('/api/health')).headers()['content-security-policy']);
    expect(api.get('default-src'), 'JSON never runs anything').toEqual(["'none'"]);
  });

  test('the consent screen and the sign-in page refuse to render inside another site’s frame', async ({ page, baseURL }) => {
    await signUpAndSignIn(page, 'framing');
    const consentUrl = await openConsent(page, baseURL!, 'Framing Probe');
    const attacker = await framingSite();
    try {
      for (const target of [consentUrl, new URL('/sign-in', baseURL).href]) {
        const framed = page.waitForResponse((response) => response.url() === target && response.request().frame() !== page.mainFrame());
        await page.goto(attacker.url(target));
        const response = await framed;
        // The server answered (with our session: the framing page is same-site), and the policy said no.
        expect(response.status(), target).toBe(200);
        expect(directives((await response.headerValue('content-security-policy')) ?? undefined).get('frame-ancestors'), target).toEqual(["'none'"]);
        const frame = page.frameLocator('#victim');
        await expect(page.getByRole('heading', { name: 'Click to win' })).toBeVisible();
        // Chromium replaces a refused frame with its error page: none of our content, no button to click.
        await expect(frame.getByRole('button')).toHaveCount(0);
        await expect(frame.getByText('Identity Service')).toHaveCount(0);
      }
    } finally {
      attacker.server.close();
    }
  });

  test('pages and their client components work under the policy, with nothing refused', async ({ page }) => {
    const complaints = policyComplaints(page);
    await VirtualAuthenticator.attach(page);
    await withoutAutofill(page);
    // Passkey sign-up and sign-in: the WebAuthn client code and Permissions-Policy for self.
    const email = uniqueEmail('csp');
    await signUpWithPasskey(page, email);
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
    // The docs help form posts with fetch from a client component (without scripts it would navigate).
    await page.goto('/docs');
    await page.getByLabel('Your question').fill('How does pagination work?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect(page.locator('.answer')).toContainText('next_cursor');
    expect(new URL(page.url()).search).toBe('');
    for (const path of [...PAGES, '/account']) await page.goto(path);
    expect(complaints).toEqual([]);
  });
});
