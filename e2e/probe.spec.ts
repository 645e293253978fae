/**
 * The outsider's probe, kept as a test (issue: "re-run the whole probe as a test file of its own"):
 * plain HTTP against the built server, the way the service was attacked from outside. Each check
 * names what it once found. Finer-grained tests of each rule live beside the code that enforces it.
 */
import { createHash, randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { expect, test } from './support/test';
import { mailCount, waitForCode } from './support/mail-sink';
import { PASSWORD, uniqueEmail } from './support/journeys';
import { authorizationCode, codeExchange, problem, registerClient, signedIn } from './support/outsider';

const base64url = (bytes: Buffer) => bytes.toString('base64url');

test.describe('the outsider probe', () => {
  test('every answer refuses framing and sniffing; pages refuse to render in a frame', async ({ request, page, baseURL }) => {
    for (const path of ['/', '/sign-in', '/api/v1/capabilities', '/.well-known/openid-configuration', '/oauth/token', '/no-such-page']) {
      const headers = (await request.get(path)).headers();
      expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['x-request-id'], path).toBeTruthy();
    }
    // Once: a same-site page framed the consent screen and one click on Allow sent a code away.
    await page.setContent(`<iframe id="victim" src="${baseURL}/sign-in" width="600" height="400"></iframe>`);
    const frame = page.frameLocator('#victim');
    await page.waitForTimeout(500);
    await expect(frame.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
  });

  test('NUL characters and unrouted methods get a clear 4xx, never a 500', async ({ request, baseURL }) => {
    // Once: NUL reached Postgres ("invalid byte sequence for encoding UTF8: 0x00") and answered 500.
    const context = await problem(await request.get('/oauth/authorize/context?client_id=a%00b&redirect_uri=http://127.0.0.1/cb'), 400);
    expect(context.code).toBe('invalid_request');
    const signIn = await problem(
      await request.post('/api/auth/signin/password', { headers: { origin: baseURL! }, data: { email: 'a\u0000@example.test', password: 'x'.repeat(12) } }),
      400,
    );
    expect(signIn.code).toBe('invalid_request');
    const token = await problem(await request.post('/oauth/token', { form: { grant_type: 'authorization_code', client_id: 'a\u0000b', code: 'c' } }), 400);
    expect(token.error).toBe('invalid_request');
    // Once: TRACE answered 500 text/plain without X-Request-ID.
    const trace = await request.fetch('/api/health', { method: 'TRACE' });
    expect(trace.status()).toBe(405);
    expect(trace.headers()['content-type']).toContain('application/problem+json');
    expect(trace.headers()['x-request-id']).toBeTruthy();
  });

  test('a CSRF token of the right length in other bytes is refused, not a crash', async ({ request, baseURL }) => {
    const csrf = await signedIn(request, baseURL!, uniqueEmail('probe-csrf'));
    const forged = `é${csrf.slice(1)}`;
    const refused = await problem(
      await request.post('/api/auth/sessions/revoke', {
        headers: { origin: baseURL!, 'x-csrf-token': forged },
        data: { session_id: '00000000-0000-4000-8000-000000000000' },
      }),
      403,
    );
    expect(refused.code).toBe('csrf_failed');
  });

  test('a self-registered client cannot turn the provider into an open redirector', async ({ request }) => {
    // Once: prompt=none answered 303 straight to any https redirect a stranger registered.
    const evil = 'https://evil.example/callback';
    const clientId = await registerClient(request, evil);
    const challenge = base64url(
      createHash('sha256')
        .update(base64url(randomBytes(32)))
        .digest(),
    );
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: evil,
      response_type: 'code',
      scope: 'openid',
      prompt: 'none',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const response = await request.get(`/oauth/authorize?${query}`, { maxRedirects: 0 });
    expect(response.status()).toBe(303);
    expect(response.headers().location).toMatch(/^\/oauth\/error\?/);
    expect(response.headers().location).not.toContain('evil.example');
  });

  test('recovery ends every token of the account, and the database holds no token in clear', async ({ request, baseURL }) => {
    const origin = baseURL!;
    const email = uniqueEmail('probe-tokens');
    const csrf = await signedIn(request, origin, email);
    const redirectUri = 'http://127.0.0.1:9/callback';
    const clientId = await registerClient(request, redirectUri);
    const authorized = await authorizationCode(request, origin, csrf, { clientId, redirectUri, scope: 'openid identity.profile.read offline_access' });
    const { code, interactionId } = authorized;
    const tokens = await (await request.post('/oauth/token', { form: codeExchange(clientId, redirectUri, authorized) })).json();
    expect(tokens.access_token && tokens.refresh_token).toBeTruthy();
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    expect((await request.get('/api/v1/me', { headers: bearer })).status()).toBe(200);

    // The database holds hashes of every bearer secret, never the value (once: oidc_models.id was the
    // token). Read when the server runs on PostgreSQL (CI); an embedded database belongs to the server
    // process alone, and lib/oidc/token-storage.int.test.ts reads every table on both drivers in process.
    const databaseUrl = process.env.DATABASE_URL;
    if (databaseUrl) {
      const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      try {
        const tables = await sql<{ table_name: string }[]>`select table_name from information_schema.tables where table_schema = 'public'`;
        const dump = (await Promise.all(tables.map(({ table_name }) => sql.unsafe(`select t::text as row from "${table_name}" t`))))
          .flat()
          .map((r) => r.row as string)
          .join('\n');
        for (const secret of [tokens.access_token, tokens.refresh_token, code, interactionId])
          expect(dump.includes(secret), 'a bearer secret in the database').toBe(false);
      } finally {
        await sql.end();
      }
    }

    // Once: after recovery the old access token still read /api/v1/me and the refresh token still refreshed.
    const before = mailCount(email);
    const { recovery_token } = await (await request.post('/api/auth/recovery/start', { headers: { origin }, data: { email } })).json();
    const recovery = { origin, 'x-recovery-token': recovery_token };
    expect((await request.post('/api/auth/recovery/verify', { headers: recovery, data: { code: await waitForCode(email, before) } })).status()).toBe(200);
    expect((await request.post('/api/auth/recovery/password/complete', { headers: recovery, data: { password: `${PASSWORD} again` } })).status()).toBe(200);
    expect((await request.get('/api/v1/me', { headers: bearer })).status()).toBe(401);
    const refreshed = await request.post('/oauth/token', { form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId } });
    expect(refreshed.status()).toBe(400);
    expect((await refreshed.json()).error).toBe('invalid_grant');
  });
});
