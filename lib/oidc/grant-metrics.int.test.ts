/**
 * identity_oauth_token_grants_total counts the token endpoint's outcomes by grant type, from the
 * provider's own events: a real code flow through the pipeline, then a refresh token nobody issued.
 */
import { describe, expect, it } from 'vitest';
import { metrics } from '@/lib/observability';
import { signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { approve, authorizationParams, CookieJar, exchangeCode, pkce, registerNativeClient, tokenRequest } from '@/tests/helpers/oauth';

const mailbox = useMailbox();

async function grants(grantType: string, outcome: string): Promise<number> {
  const metric = await metrics().tokenGrants.get();
  return metric.values.find((v) => v.labels.grant_type === grantType && v.labels.outcome === outcome)?.value ?? 0;
}

describe('token grant metrics', () => {
  it('count a redeemed code as an authorization_code success and a forged refresh token as a refresh_token error', async () => {
    const email = 'grants.metrics@example.test';
    const password = 'a long enough passphrase for grants';
    await signUpWithPassword(mailbox, email, password);
    const browser = await signInWithPassword(email, password);
    const clientId = await registerNativeClient();
    const { verifier, challenge } = pkce();
    const before = { code: await grants('authorization_code', 'success'), refresh: await grants('refresh_token', 'error') };

    const callback = await approve(new CookieJar(browser), browser, authorizationParams(clientId, challenge));
    expect((await exchangeCode(clientId, callback, verifier)).status).toBe(200);
    const forged = await tokenRequest({ grant_type: 'refresh_token', refresh_token: 'not-a-token-this-service-issued', client_id: clientId });
    expect(forged.status).toBe(400);

    expect(await grants('authorization_code', 'success')).toBe(before.code + 1);
    expect(await grants('refresh_token', 'error')).toBe(before.refresh + 1);
  });
});
