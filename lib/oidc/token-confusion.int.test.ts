/**
 * Only an access token is a bearer credential. A refresh token, an ID token or an authorization code
 * presented as one is refused by our API (/api/v1/me) and by the provider's userinfo, and an access
 * token in the query string (RFC 6750 §2.3, where logs and Referer headers keep it) is not accepted.
 */
import { describe, expect, it } from 'vitest';
import { signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { call, operation } from '@/tests/helpers/http';
import { approve, authorizationParams, CookieJar, exchangeCode, pkce, registerNativeClient } from '@/tests/helpers/oauth';

const mailbox = useMailbox();
const PASSWORD = 'a long and unusual passphrase';

const ENDPOINTS = [
  ['/api/v1/me', 'our API'],
  ['/oauth/userinfo', 'the provider’s userinfo'],
] as const;

const withBearer = (path: string, token: string) => call(operation('GET', path), { headers: { authorization: `Bearer ${token}` } });

let people = 0;

/** A person approves twice: the tokens of the first code, and a second code never exchanged (still live). */
async function issued() {
  const email = `confusion-${(people += 1)}@example.test`;
  await signUpWithPassword(mailbox, email, PASSWORD);
  const browser = await signInWithPassword(email, PASSWORD);
  const clientId = await registerNativeClient();
  const params = { scope: 'openid offline_access identity.profile.read', prompt: 'consent' };
  const first = pkce();
  const tokens = await (
    await exchangeCode(clientId, await approve(new CookieJar(browser), browser, authorizationParams(clientId, first.challenge, params)), first.verifier)
  ).json();
  const code = (await approve(new CookieJar(browser), browser, authorizationParams(clientId, pkce().challenge, params))).searchParams.get('code')!;
  return { access: tokens.access_token as string, refresh: tokens.refresh_token as string, idToken: tokens.id_token as string, code };
}

describe('token-type confusion', () => {
  // ASVS V9.2.2 (only access tokens are accepted for authorization decisions)
  it('refuses a refresh token, an ID token and an authorization code as a Bearer credential, everywhere', async () => {
    const { access, refresh, idToken, code } = await issued();
    for (const [path, name] of ENDPOINTS) {
      expect((await withBearer(path, access)).status, `${name}: the access token itself works`).toBe(200);
      for (const [kind, value] of [
        ['refresh token', refresh],
        ['ID token', idToken],
        ['authorization code', code],
      ] as const) {
        const response = await withBearer(path, value);
        expect(response.status, `${kind} at ${name}`).toBe(401);
        expect(response.headers.get('www-authenticate'), `${kind} at ${name}`).toMatch(/^Bearer .*invalid_token/);
      }
    }
  });

  // ASVS V9.2.2, V14.2.1; RFC 9700 §2.5 / RFC 6750 §5.3 (no access tokens in the query)
  it('does not accept an access token in the query string', async () => {
    const { access } = await issued();
    const query = `access_token=${access}`;
    // Our API never reads credentials from the query: without an Authorization header there is none.
    const api = await call(operation('GET', '/api/v1/me'), { query });
    expect(api.status).toBe(401);
    expect((await api.json()).code).toBe('unauthenticated');
    // The provider refuses the query parameter outright.
    const userinfo = await call(operation('GET', '/oauth/userinfo'), { query });
    expect(userinfo.status).toBe(400);
    expect(await userinfo.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/query/) });
  });
});
