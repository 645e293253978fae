import { describe, expect, it } from 'vitest';
import { getProvider } from '@/lib/oidc/provider';
import { as, get, post, signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { call, operation, problemOf } from '@/tests/helpers/http';

const mailbox = useMailbox();

async function grantFor(userId: string) {
  const provider = await getProvider();
  const registration = await call(operation('POST', '/oauth/register'), {
    body: { client_name: 'Consent CLI', application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:50003/cb'] },
    headers: { 'x-forwarded-for': `2001:db8:c0::${userId.slice(0, 4)}` },
  });
  const client = (await provider.Client.find((await registration.json()).client_id))!;
  const grant = new provider.Grant({ accountId: userId, clientId: client.clientId });
  grant.addOIDCScope('openid identity.profile.read');
  const grantId = await grant.save();
  const token = await new provider.AccessToken({ accountId: userId, client, grantId, gty: 'authorization_code', scope: 'openid identity.profile.read' }).save();
  return { grantId, token };
}

describe('consents on the account', () => {
  // ASVS V8.2.2, V10.4.9, V10.7.3
  it("lists your consents and withdraws one with every token it issued; never someone else's", async () => {
    const userId = await signUpWithPassword(mailbox, 'ada@example.test', 'consent listing passphrase');
    const otherId = await signUpWithPassword(mailbox, 'eve@example.test', 'consent listing passphrase');
    const mine = await grantFor(userId);
    const theirs = await grantFor(otherId);
    const browser = await signInWithPassword('ada@example.test', 'consent listing passphrase');
    const { consents } = await (await get('/api/auth/consents', { headers: { cookie: browser.cookie } })).json();
    expect(consents).toEqual([expect.objectContaining({ grant_id: mine.grantId, client_name: 'Consent CLI', scopes: ['openid', 'identity.profile.read'] })]);
    const foreign = await post('/api/auth/consents/revoke', { grant_id: theirs.grantId }, { headers: as(browser) });
    expect((await problemOf(foreign)).code).toBe('not_found');
    expect((await call(operation('GET', '/api/v1/me'), { headers: { authorization: `Bearer ${mine.token}` } })).status).toBe(200);
    expect((await post('/api/auth/consents/revoke', { grant_id: mine.grantId }, { headers: as(browser) })).status).toBe(200);
    expect((await call(operation('GET', '/api/v1/me'), { headers: { authorization: `Bearer ${mine.token}` } })).status).toBe(401);
    expect((await call(operation('GET', '/api/v1/me'), { headers: { authorization: `Bearer ${theirs.token}` } })).status).toBe(200);
    expect((await (await get('/api/auth/consents', { headers: { cookie: browser.cookie } })).json()).consents).toEqual([]);
  });
});
