/**
 * Single-use artefacts under concurrency, and tokens of a grant that is gone. Run on PostgreSQL
 * (DATABASE_URL) for the races to be real: in-process requests on a pool of connections interleave
 * between the provider's "already consumed?" read and its consumption.
 */
import { describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { newClient, signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { call, operation } from '@/tests/helpers/http';
import { approve, authorizationParams, CookieJar, exchangeCode, pkce, registerNativeClient, tokenRequest } from '@/tests/helpers/oauth';
import { getProvider } from './provider';

const mailbox = useMailbox();
const PASSWORD = 'a long and unusual passphrase';
const RACERS = 12;
let people = 0;

const getMe = (token: string) => call(operation('GET', '/api/v1/me'), { headers: { authorization: `Bearer ${token}` } });
const userinfo = (token: string) => call(operation('GET', '/oauth/userinfo'), { headers: { authorization: `Bearer ${token}` } });
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const mcp = (token: string) =>
  call(operation('POST', '/mcp'), {
    body: INITIALIZE,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', 'x-forwarded-for': newClient() },
  });

/** A signed-in person approves a request for a new client: what the client needs to redeem the code. */
async function approvedCode(extra: Record<string, string>) {
  const email = `single-use-${(people += 1)}@example.test`;
  await signUpWithPassword(mailbox, email, PASSWORD);
  const browser = await signInWithPassword(email, PASSWORD);
  const clientId = await registerNativeClient();
  const { verifier, challenge } = pkce();
  const callback = await approve(new CookieJar(browser), browser, authorizationParams(clientId, challenge, { prompt: 'consent', ...extra }));
  return { clientId, verifier, callback };
}

/** Sends the same token request `RACERS` times at once: statuses and bodies, in no particular order. */
async function race(send: () => Promise<Response>) {
  const responses = await Promise.all(Array.from({ length: RACERS }, send));
  return Promise.all(responses.map(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, string> })));
}

describe('an authorization code', () => {
  // RFC 6749 §4.1.2 and §10.5; ASVS V10.4.2
  it('redeemed by concurrent requests gives exactly one set of tokens; every other request gets invalid_grant', async () => {
    const { clientId, verifier, callback } = await approvedCode({ scope: 'openid identity.profile.read offline_access' });
    const answers = await race(() => exchangeCode(clientId, callback, verifier));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(RACERS - 1);
    for (const answer of refused) expect(answer).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
  });

  // RFC 6749 §4.1.2: a code used twice revokes what was issued from it, as a sequential reuse does.
  it('used more than once at the same moment revokes the grant: the one token issued is dead everywhere', async () => {
    const { clientId, verifier, callback } = await approvedCode({ scope: 'openid identity.profile.read offline_access' });
    const answers = await race(() => exchangeCode(clientId, callback, verifier));
    const [issued] = answers.filter((a) => a.status === 200);
    expect((await getMe(issued!.body.access_token!)).status).toBe(401);
    expect((await userinfo(issued!.body.access_token!)).status).toBe(401);
    const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: issued!.body.refresh_token!, client_id: clientId });
    expect(refresh.status).toBe(400);
    expect((await refresh.json()).error).toBe('invalid_grant');
  });
});

describe('a refresh token', () => {
  // RFC 9700 §4.14.2 (rotation: a refresh token is single-use); ASVS V10.4.8
  it('refreshed by concurrent requests gives exactly one new pair; every other request gets invalid_grant', async () => {
    const { clientId, verifier, callback } = await approvedCode({ scope: 'openid identity.profile.read offline_access' });
    const tokens = await (await exchangeCode(clientId, callback, verifier)).json();
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const answers = await race(() => tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(RACERS - 1);
    for (const answer of refused) expect(answer).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
  });
});

describe('a token whose grant no longer exists', () => {
  /**
   * The provider revokes a grant by deleting its artefacts, then the grant. A token saved by a request
   * that was still running at that moment (a racing redemption) outlives the deletion of artefacts:
   * only its grant is gone. The same state is made here with the provider's own grant deletion.
   */
  async function orphaned(token: string) {
    const provider = await getProvider();
    const stored = await provider.AccessToken.find(token);
    await provider.Grant.adapter.destroy(stored!.grantId!);
  }

  it('answers 401 at /api/v1/me and at userinfo', async () => {
    const { clientId, verifier, callback } = await approvedCode({ scope: 'openid identity.profile.read' });
    const { access_token: token } = await (await exchangeCode(clientId, callback, verifier)).json();
    expect((await getMe(token)).status).toBe(200);
    expect((await userinfo(token)).status).toBe(200);
    await orphaned(token);
    const me = await getMe(token);
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect((await userinfo(token)).status).toBe(401);
  });

  it('answers 401 at /mcp', async () => {
    const resource = `${getConfig().baseUrl}/mcp`;
    const { clientId, verifier, callback } = await approvedCode({ scope: 'identity.profile.read', resource });
    const { access_token: token } = await (await exchangeCode(clientId, callback, verifier, { resource })).json();
    expect((await mcp(token)).status).toBe(200);
    await orphaned(token);
    const refused = await mcp(token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });
});
