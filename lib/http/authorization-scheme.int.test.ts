/**
 * RFC 9110 §11.1: the authentication scheme of an Authorization header is case-insensitive. Every
 * bearer surface takes `bearer`, `BEARER` and `Bearer` alike: the API's bearer term (OAuth tokens and
 * API keys), /mcp and the provider's userinfo.
 */
import { describe, expect, it } from 'vitest';
import { newClient, useMailbox } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN } from '@/tests/helpers/http';
import { mintAccessToken } from '@/tests/helpers/oauth';
import { asBrowser, person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();
const SCHEMES = ['Bearer', 'bearer', 'BEARER', 'bEaReR'];
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

const withScheme = (scheme: string, credential: string) => ({ authorization: `${scheme} ${credential}`, 'x-forwarded-for': newClient() });

describe('the Authorization scheme is case-insensitive on every bearer surface', () => {
  it('the API: an OAuth access token and an API key', async () => {
    const ada = await person(mailbox, 'scheme-api');
    const oauth = (await mintAccessToken(ada.userId, 'identity.profile.read identity.developer.read')).value;
    const created = await asBrowser(ada.browser, 'POST', '/api/developer/api-keys', { body: { name: 'CI', scopes: ['identity.developer.read'] } });
    expect(created.status).toBe(201);
    const { api_key } = (await created.json()) as { api_key: string };
    for (const scheme of SCHEMES) {
      expect((await call(operation('GET', '/api/v1/me'), { headers: withScheme(scheme, oauth) })).status, scheme).toBe(200);
      expect((await call(operation('GET', '/api/v1/developer/api-keys'), { headers: withScheme(scheme, api_key) })).status, scheme).toBe(200);
    }
    // Still exactly the Bearer scheme: another scheme, or no token, is no bearer credential.
    for (const header of ['Basic ' + oauth, 'Bearer', 'bearer ', 'Bearerx ' + oauth]) {
      expect((await call(operation('GET', '/api/v1/me'), { headers: { authorization: header, 'x-forwarded-for': newClient() } })).status, header).toBe(401);
    }
  });

  it('/mcp', async () => {
    const ada = await person(mailbox, 'scheme-mcp');
    const token = (await mintAccessToken(ada.userId, 'identity.profile.read', { audience: `${ORIGIN}/mcp` })).value;
    for (const scheme of SCHEMES) {
      const response = await call(operation('POST', '/mcp'), {
        body: INITIALIZE,
        headers: { ...withScheme(scheme, token), accept: 'application/json, text/event-stream' },
      });
      expect(response.status, scheme).toBe(200);
    }
  });

  it('userinfo (read by the provider, with the same rule)', async () => {
    const ada = await person(mailbox, 'scheme-userinfo');
    const token = (await mintAccessToken(ada.userId, 'openid identity.profile.read')).value;
    for (const scheme of SCHEMES) {
      expect((await call(operation('GET', '/oauth/userinfo'), { headers: withScheme(scheme, token) })).status, scheme).toBe(200);
    }
  });
});
