/**
 * OAuth access ends with the events that say the account may be in someone else's hands (issue 9,
 * item 23): recovery revokes every grant and token of the account; a password change revokes every
 * token not issued to the sign-in that changed it. An independent relying party (openid-client)
 * holds the tokens.
 */
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { as, post, signInWithPassword, signUpWithPassword, useMailbox, type Browser } from '@/tests/helpers/accounts';
import { call, operation } from '@/tests/helpers/http';
import { authorizeWithConsent, CookieJar, relyingParty } from '@/tests/helpers/oauth';

const mailbox = useMailbox();
const PASSWORD = 'a long and unusual passphrase';
const SCOPE = 'openid offline_access identity.profile.read';

const me = (accessToken: string) => call(operation('GET', '/api/v1/me'), { headers: { authorization: `Bearer ${accessToken}` } });
const consentsOf = async (browser: Browser) =>
  (await (await call(operation('GET', '/api/auth/consents'), { headers: { cookie: browser.cookie } })).json()).consents;

async function recoverWithNewPassword(email: string, password: string) {
  const started = await post('/api/auth/recovery/start', { email });
  const headers = { 'x-recovery-token': ((await started.json()) as { recovery_token: string }).recovery_token };
  expect((await post('/api/auth/recovery/verify', { code: mailbox.codeFor(email) }, { headers })).status).toBe(200);
  expect((await post('/api/auth/recovery/password/complete', { password }, { headers })).status).toBe(200);
}

describe('OAuth grants and account security events', () => {
  it('recovery revokes every grant and token of the account: the old access token gets 401, the refresh token fails', async () => {
    const email = 'taken-over@example.test';
    await signUpWithPassword(mailbox, email, PASSWORD);
    const browser = await signInWithPassword(email, PASSWORD);
    const rp = await relyingParty('Attacker CLI');
    const tokens = await authorizeWithConsent(rp, new CookieJar(browser), browser, SCOPE);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect((await me(tokens.access_token)).status).toBe(200);

    await recoverWithNewPassword(email, 'the owner takes the account back');

    expect((await me(tokens.access_token)).status).toBe(401);
    await expect(client.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.fetchUserInfo(rp, tokens.access_token, client.skipSubjectCheck)).rejects.toThrow();
    const owner = await signInWithPassword(email, 'the owner takes the account back');
    expect(await consentsOf(owner)).toEqual([]);
  });

  it('a password change revokes the tokens of other sign-ins and keeps those of the sign-in that changed it', async () => {
    const email = 'changes-password@example.test';
    await signUpWithPassword(mailbox, email, PASSWORD);
    const elsewhere = await signInWithPassword(email, PASSWORD);
    // A sign-in is told apart by its authentication second (the provider's login time, auth_time).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const here = await signInWithPassword(email, PASSWORD);
    const fromElsewhere = await relyingParty('Unknown app');
    const fromHere = await relyingParty('Own app');
    const stale = await authorizeWithConsent(fromElsewhere, new CookieJar(elsewhere), elsewhere, SCOPE);
    const kept = await authorizeWithConsent(fromHere, new CookieJar(here), here, SCOPE);

    const changed = await post(
      '/api/auth/password/change',
      { current_password: PASSWORD, new_password: 'a newer and better passphrase' },
      { headers: as(here) },
    );
    expect(changed.status).toBe(200);

    expect((await me(stale.access_token)).status).toBe(401);
    await expect(client.refreshTokenGrant(fromElsewhere, stale.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await me(kept.access_token)).status).toBe(200);
    const refreshed = await client.refreshTokenGrant(fromHere, kept.refresh_token!);
    expect((await me(refreshed.access_token)).status).toBe(200);
    // The consent whose every token is gone is gone too; the one still in use stays listed.
    expect((await consentsOf(here)).map((c: { client_name: string }) => c.client_name)).toEqual(['Own app']);
  });
});
