import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { call, operation, ORIGIN } from '@/tests/helpers/http';

/** openid-client (a certified relying party) fetches through the real pipeline, in-process. */
const throughPipeline: client.CustomFetch = async (input, init) => {
  const request = new Request(input, init as RequestInit);
  const url = new URL(request.url);
  const headers = Object.fromEntries(request.headers);
  return call(operation(request.method, url.pathname), { headers, query: url.search.slice(1) });
};

async function discover() {
  return client.discovery(new URL(ORIGIN), 'no-client-yet', undefined, undefined, {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: throughPipeline,
  });
}

describe('OIDC discovery and keys', () => {
  // ASVS V10.4.4, V10.4.6, V10.6.1
  it('publishes metadata an independent relying party accepts, with our endpoints and posture', async () => {
    const config = await discover();
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(ORIGIN);
    expect(metadata.authorization_endpoint).toBe(`${ORIGIN}/oauth/authorize`);
    expect(metadata.token_endpoint).toBe(`${ORIGIN}/oauth/token`);
    expect(metadata.userinfo_endpoint).toBe(`${ORIGIN}/oauth/userinfo`);
    expect(metadata.revocation_endpoint).toBe(`${ORIGIN}/oauth/revoke`);
    expect(metadata.registration_endpoint).toBe(`${ORIGIN}/oauth/register`);
    expect(metadata.jwks_uri).toBe(`${ORIGIN}/.well-known/jwks.json`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.grant_types_supported).not.toContain('implicit');
    expect(metadata.grant_types_supported).not.toContain('password');
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'offline_access', 'identity.email.read', 'profile']));
  });

  it('serves the same document as OAuth authorization server metadata', async () => {
    const oidc = await (await call(operation('GET', '/.well-known/openid-configuration'))).json();
    const oauth = await call(operation('GET', '/.well-known/oauth-authorization-server'));
    expect(oauth.status).toBe(200);
    expect(oauth.headers.get('x-request-id')).toBeTruthy();
    expect((await oauth.json()).token_endpoint).toBe(oidc.token_endpoint);
  });

  // ASVS V4.1.3
  it('publishes only public signing keys, whatever Host the client claims', async () => {
    const response = await call(operation('GET', '/.well-known/jwks.json'), { headers: { host: 'evil.test', 'x-forwarded-host': 'evil.test' } });
    expect(response.status).toBe(200);
    const { keys } = await response.json();
    expect(keys.map((k: { alg: string }) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of keys) expect(key).not.toHaveProperty('d');
    const discovery = await call(operation('GET', '/.well-known/openid-configuration'), { headers: { 'x-forwarded-host': 'evil.test' } });
    expect((await discovery.json()).issuer).toBe(ORIGIN);
  });

  it('describes the MCP resource (RFC 9728)', async () => {
    const body = await (await call(operation('GET', '/.well-known/oauth-protected-resource/mcp'))).json();
    expect(body).toMatchObject({ resource: `${ORIGIN}/mcp`, authorization_servers: [ORIGIN] });
  });
});

describe('protected-resource metadata named by Bearer challenges', () => {
  it('exists at the URL every 401 from /api/v1 points to', async () => {
    const challenge = (await call(operation('GET', '/api/v1/me'))).headers.get('www-authenticate')!;
    const url = new URL(/resource_metadata="([^"]+)"/.exec(challenge)![1]!);
    const body = await (await call(operation('GET', url.pathname))).json();
    expect(body).toMatchObject({ resource: ORIGIN, authorization_servers: [ORIGIN] });
    expect(body.scopes_supported).toContain('identity.privacy.export');
  });
});
