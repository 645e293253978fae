/**
 * Cookies over HTTPS, on a real TLS server: every cookie the service sets (our session and the
 * provider's session, interaction and resume cookies) is a `__Host-` cookie, and the authorization
 * journey still works end to end with them (the provider reads its cookies back on resume).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { startHttpsServer } from '@/tests/helpers/https-server';
import { CookieJar, pkce, REDIRECT } from '@/tests/helpers/oauth';
import { withEnv } from '@/tests/setup/state';

const mailbox = useMailbox();
let server: Awaited<ReturnType<typeof startHttpsServer>>;
let restore: () => void;

beforeAll(async () => {
  server = await startHttpsServer();
  restore = withEnv({ BASE_URL: server.origin });
});
afterAll(async () => {
  restore();
  await server.close();
});

const json = (jar: CookieJar, path: string, body: unknown, headers: Record<string, string> = {}) =>
  server.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin, cookie: jar.header(), ...headers },
    body: JSON.stringify(body),
  });

/** Every Set-Cookie line must describe a `__Host-` cookie: Secure, HttpOnly, SameSite, Path=/, no Domain. */
function hostCookies(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const name = pair!.slice(0, pair!.indexOf('='));
    const lower = attributes.map((a) => a.toLowerCase());
    expect(name, line).toMatch(/^__Host-/);
    expect(lower, line).toContain('secure');
    expect(lower, line).toContain('httponly');
    expect(
      lower.some((a) => /^samesite=(lax|strict)$/.test(a)),
      line,
    ).toBe(true);
    expect(lower, line).toContain('path=/');
    expect(
      lower.some((a) => a.startsWith('domain=')),
      line,
    ).toBe(false);
    return name;
  });
}

describe('cookies over https', () => {
  // ASVS V3.3.1, V3.3.3
  it('are all __Host-, Secure, HttpOnly, SameSite at sign-in and through an authorization request, which completes', async () => {
    const jar = new CookieJar();
    const email = 'https-cookies@example.test';
    const started = await json(jar, '/api/auth/enrollment/start', { email });
    const token = { 'x-enrollment-token': ((await started.json()) as { enrollment_token: string }).enrollment_token };
    expect((await json(jar, '/api/auth/enrollment/verify-email', { code: mailbox.codeFor(email) }, token)).status).toBe(200);
    const password = 'a long and unusual passphrase';
    expect((await json(jar, '/api/auth/enrollment/password/complete', { password }, token)).status).toBe(201);

    const signedIn = jar.store(await json(jar, '/api/auth/signin/password', { email, password }));
    expect(signedIn.status).toBe(201);
    const names = hostCookies(signedIn);
    expect(names).toContain('__Host-session');
    const { csrf_token: csrf } = (await signedIn.json()) as { csrf_token: string };

    const registered = await json(jar, '/oauth/register', {
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [REDIRECT],
    });
    expect(registered.status).toBe(201);
    const clientId = ((await registered.json()) as { client_id: string }).client_id;

    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
    });
    const authorization = jar.store(await server.request(`/oauth/authorize?${query}`, { headers: { cookie: jar.header(), 'sec-fetch-site': 'cross-site' } }));
    expect(authorization.status).toBe(303);
    names.push(...hostCookies(authorization));
    const interactionId = /^\/consent\/([^/?]+)$/.exec(authorization.headers.get('location') ?? '')![1]!;

    const decided = await json(jar, '/oauth/authorize', { interaction_id: interactionId, decision: 'approve' }, { 'x-csrf-token': csrf });
    expect(decided.status).toBe(200);
    const resumed = jar.store(await server.request((await decided.json()).redirect_to, { headers: { cookie: jar.header(), 'sec-fetch-site': 'same-origin' } }));
    names.push(...hostCookies(resumed));
    const callback = new URL(resumed.headers.get('location') ?? 'http://invalid/');
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(new Set(names)).toEqual(
      new Set([
        '__Host-session',
        '__Host-oidc_interaction',
        '__Host-oidc_interaction.sig',
        '__Host-oidc_resume',
        '__Host-oidc_resume.sig',
        '__Host-oidc_session',
        '__Host-oidc_session.sig',
      ]),
    );

    const tokens = await server.request('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: REDIRECT,
      }).toString(),
    });
    expect(tokens.status).toBe(200);
    expect(((await tokens.json()) as { id_token?: string }).id_token).toBeTruthy();
  });
});
