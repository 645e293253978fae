/**
 * Proves the federation test harness itself: the DNS server answers a real resolver, the test CA's
 * certificates are trusted only with the CA, the external IdP completes a code flow with a certified
 * relying party (openid-client), and the scripted IdP serves exactly what it is told to.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { promises as dns } from 'node:dns';
import { readFileSync } from 'node:fs';
import { createServer, get as httpsGet } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from './dns-server';
import { startExternalIdp, type ExternalIdp } from './external-idp';
import { httpsFetch, type HttpsFetch } from './https';
import { startScriptedIdp, type NextTokenOverrides, type ScriptedIdp } from './scripted-idp';
import { createSigningCertificate, createTestCa, type TestCa } from './test-ca';

const CALLBACK = 'https://service.test/federation/callback';

describe('test DNS server', () => {
  let server: TestDnsServer;
  let resolver: dns.Resolver;
  beforeAll(async () => {
    server = await startDnsServer();
    resolver = new dns.Resolver({ timeout: 500, tries: 1 });
    resolver.setServers([server.address]);
  });
  afterAll(() => server.close());

  it('answers TXT records over the wire, matching names case-insensitively', async () => {
    expect(server.address).toMatch(/^127\.0\.0\.1:\d+$/);
    server.setTxt('_idsvc-verify.Example.COM', ['token-abc']);
    expect(await resolver.resolveTxt('_idsvc-verify.example.com')).toEqual([['token-abc']]);
    server.setTxt('two.example.com', ['first', 'second']);
    expect((await resolver.resolveTxt('TWO.example.com.')).map((chunks) => chunks.join('')).sort()).toEqual(['first', 'second']);
  });

  // Node's resolver sends no EDNS, so an answer over 512 bytes comes back truncated over UDP and is
  // asked again over TCP: both answers here travel over the server's TCP listener.
  it('splits a value over 255 bytes into character-strings that join back, over TCP when large', async () => {
    const long = 'v=verify1 '.repeat(60);
    server.setTxt('long.example.com', [long]);
    const [record] = await resolver.resolveTxt('long.example.com');
    expect(record!.map((chunk) => chunk.length)).toEqual([255, 255, 90]);
    expect(record!.join('')).toBe(long);
    const many = ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(600));
    server.setTxt('big.example.com', many);
    expect((await resolver.resolveTxt('big.example.com')).map((chunks) => chunks.join('')).sort()).toEqual(many);
  });

  it('answers NXDOMAIN for unknown or removed names and NODATA for a name without TXT', async () => {
    await expect(resolver.resolveTxt('nobody.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    server.setTxt('gone.example.com', ['x']);
    server.remove('gone.example.com');
    await expect(resolver.resolveTxt('gone.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    server.setTxt('empty.example.com', []);
    await expect(resolver.resolveTxt('empty.example.com')).rejects.toMatchObject({ code: 'ENODATA' });
  });

  it('answers late when told to, so a resolver times out', async () => {
    server.setTxt('slow.example.com', ['late']);
    server.delay('slow.example.com', 1500);
    await expect(resolver.resolveTxt('slow.example.com')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    server.delay('slow.example.com', 0);
    expect(await resolver.resolveTxt('slow.example.com')).toEqual([['late']]);
  });
});

describe('test certificate authority', () => {
  let ca: TestCa;
  beforeAll(async () => {
    ca = await createTestCa();
  });

  it('issues server certificates trusted with the CA and refused without it', async () => {
    expect(readFileSync(ca.caFile, 'utf8')).toBe(ca.caPem);
    const { certPem, keyPem } = await ca.issueServer(['localhost', '127.0.0.1']);
    const leaf = new X509Certificate(certPem);
    expect(leaf.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(leaf.checkIssued(new X509Certificate(ca.caPem))).toBe(true);
    const server = createServer({ cert: certPem, key: keyPem }, (_req, res) => res.end('hello over tls'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const get = (url: string, ca?: string) =>
      new Promise<string>((resolve, reject) => {
        httpsGet(url, { ca, agent: false }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk));
          res.on('end', () => resolve(body));
        }).on('error', reject);
      });
    try {
      expect(await get(`https://localhost:${port}/`, ca.caPem)).toBe('hello over tls');
      expect(await get(`https://127.0.0.1:${port}/`, ca.caPem)).toBe('hello over tls');
      await expect(get(`https://localhost:${port}/`)).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('makes self-signed SAML signing certificates, valid or expired', async () => {
    const signing = await createSigningCertificate({ commonName: 'Acme SAML' });
    const cert = new X509Certificate(signing.certPem);
    expect(cert.subject).toBe('CN=Acme SAML');
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(cert.checkPrivateKey(createPrivateKey(signing.keyPem))).toBe(true);
    expect(Buffer.from(signing.certBase64, 'base64').equals(cert.raw)).toBe(true);
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now());
    const expired = new X509Certificate(
      (await createSigningCertificate({ notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) })).certPem,
    );
    expect(new Date(expired.validTo).getTime()).toBeLessThan(Date.now());
  });
});

/** Discovery, an authorization URL with PKCE, state and nonce, and the code exchange, as a relying party does it. */
async function relyingParty(issuer: string, caPem: string, clientId: string, secret: string, auth?: client.ClientAuth) {
  const config = await client.discovery(new URL(issuer), clientId, secret, auth, { [client.customFetch]: httpsFetch(caPem) });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const exchange = (callback: URL) =>
    client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  return { config, url, state, nonce, exchange };
}

describe('external IdP (a real second OpenID provider)', () => {
  let ca: TestCa;
  let idp: ExternalIdp;
  beforeAll(async () => {
    ca = await createTestCa();
    idp = await startExternalIdp({ ca, clients: [{ client_id: 'service', client_secret: 'service-secret', redirect_uris: [CALLBACK] }] });
    idp.setAccount('alice', { email: 'alice@acme.test', email_verified: true, name: 'Alice Acme' });
  });
  afterAll(() => idp.close());

  it('signs a person in through its own pages and issues an ID token a certified relying party accepts', async () => {
    expect(idp.issuer).toMatch(/^https:\/\/localhost:\d+$/);
    expect(idp.caFile).toBe(ca.caFile);
    const rp = await relyingParty(idp.issuer, idp.caPem, 'service', 'service-secret', client.ClientSecretBasic('service-secret'));
    const callback = await idp.signIn(rp.url.href, 'alice');
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    expect(callback.searchParams.get('state')).toBe(rp.state);
    expect(callback.searchParams.get('code')).toBeTruthy();
    const tokens = await rp.exchange(callback);
    expect(tokens.claims()).toMatchObject({
      iss: idp.issuer,
      aud: 'service',
      sub: 'alice',
      email: 'alice@acme.test',
      email_verified: true,
      name: 'Alice Acme',
      nonce: rp.nonce,
    });
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
  });

  it('takes clients added later, authenticating with client_secret_post', async () => {
    idp.addClient({ client_id: 'late', client_secret: 'late-secret', redirect_uris: [CALLBACK] });
    idp.setAccount('bob', { email: 'bob@acme.test', email_verified: false });
    const rp = await relyingParty(idp.issuer, idp.caPem, 'late', 'late-secret', client.ClientSecretPost('late-secret'));
    const tokens = await rp.exchange(await idp.signIn(rp.url.href, 'bob'));
    expect(tokens.claims()).toMatchObject({ sub: 'bob', email: 'bob@acme.test', email_verified: false, aud: 'late' });
  });

  it('is not reachable for a client that does not trust the test CA', async () => {
    await expect(httpsFetch((await createTestCa()).caPem)(`${idp.issuer}/.well-known/openid-configuration`)).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });
});

describe('scripted IdP', () => {
  let idp: ScriptedIdp;
  let fetch: HttpsFetch;
  beforeAll(async () => {
    idp = await startScriptedIdp();
    idp.setSubject('carol', { email: 'carol@acme.test' });
    fetch = httpsFetch(idp.caPem);
  });
  afterAll(() => idp.close());

  /** An authorization request by hand (state s-1, nonce n-1): the IdP approves at once. */
  async function authorize(clientId: string) {
    const verifier = client.randomPKCECodeVerifier();
    const challenge = await client.calculatePKCECodeChallenge(verifier);
    const query = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CALLBACK,
      state: 's-1',
      nonce: 'n-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const response = await fetch(`${idp.issuer}/authorize?${new URLSearchParams(query)}`);
    const callback = new URL(response.headers.get('location') ?? 'about:blank');
    return { response, callback, code: callback.searchParams.get('code') ?? '', verifier };
  }
  const token = (form: Record<string, string>) =>
    fetch(`${idp.issuer}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', redirect_uri: CALLBACK, ...form }) });

  it('serves discovery, redirects /authorize with the state, and refuses a wrong PKCE verifier', async () => {
    const metadata = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json();
    expect(metadata).toMatchObject({ issuer: idp.issuer, authorization_endpoint: `${idp.issuer}/authorize`, jwks_uri: `${idp.issuer}/jwks` });
    const { response, callback, code } = await authorize('c1');
    expect(response.status).toBe(302);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    expect(callback.searchParams.get('state')).toBe('s-1');
    expect(idp.lastAuthorization?.get('client_id')).toBe('c1');
    const wrong = await token({ code, code_verifier: client.randomPKCECodeVerifier() });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('invalid_grant');
    expect(idp.tokenRequests).toBe(1);
    idp.setMetadataOverrides({ issuer: 'https://other.example' });
    expect((await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()).issuer).toBe('https://other.example');
    idp.setMetadataOverrides({});
  });

  it('issues an RS256 ID token signed by its published key, with overrides for the next token only', async () => {
    const { code, verifier } = await authorize('c2');
    idp.nextToken({ aud: 'someone-else' });
    const response = await token({ code, code_verifier: verifier, client_id: 'c2', client_secret: 'c2-secret' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    const jwks = createLocalJWKSet(await (await fetch(`${idp.issuer}/jwks`)).json());
    const { payload, protectedHeader } = await jwtVerify(body.id_token, jwks, { issuer: idp.issuer });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: 'scripted-idp-rs256' });
    expect(payload).toMatchObject({ aud: 'someone-else', sub: 'carol', email: 'carol@acme.test', email_verified: true, nonce: 'n-1' });
    expect(idp.lastTokenRequest?.params.get('client_secret')).toBe('c2-secret');

    // A certified relying party: the next token is the default one again, and a scripted nonce is refused.
    const rp = await relyingParty(idp.issuer, idp.caPem, 'c2', 'c2-secret');
    expect((await rp.exchange(await idp.authorize(rp.url))).claims()).toMatchObject({ iss: idp.issuer, aud: 'c2', nonce: rp.nonce });
    const refused = await relyingParty(idp.issuer, idp.caPem, 'c2', 'c2-secret');
    idp.nextToken({ nonce: 'replayed' });
    const error = await refused.exchange(await idp.authorize(refused.url)).catch((e: client.ClientError) => e);
    expect(error).toBeInstanceOf(client.ClientError);
    expect(error).toMatchObject({ code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' });
    // ClientError > OperationProcessingError > the comparison that failed.
    const detail = ((error as client.ClientError).cause as { cause?: { claim?: string; expected?: string; claims?: { nonce?: string } } }).cause;
    expect(detail).toMatchObject({ claim: 'nonce', expected: refused.nonce, claims: { nonce: 'replayed' } });
  });

  it('stages tokens the published key cannot verify: HS256, none, another key; and a replaced JWKS', async () => {
    const jwks = createLocalJWKSet(await (await fetch(`${idp.issuer}/jwks`)).json());
    const variants: [NextTokenOverrides, string][] = [
      [{ alg: 'HS256' }, 'HS256'],
      [{ alg: 'none' }, 'none'],
      [{ signWithOtherKey: true }, 'RS256'],
    ];
    for (const [overrides, alg] of variants) {
      const { code, verifier } = await authorize('c3');
      idp.nextToken(overrides);
      const { id_token } = await (await token({ code, code_verifier: verifier, client_id: 'c3', client_secret: 'c3-secret' })).json();
      expect(decodeProtectedHeader(id_token).alg, alg).toBe(alg);
      await expect(jwtVerify(id_token, jwks), alg).rejects.toThrow();
    }
    // HS256 is keyed with the client secret the token request presented.
    const { code, verifier } = await authorize('c3');
    idp.nextToken({ alg: 'HS256', email_verified: false });
    const { id_token } = await (await token({ code, code_verifier: verifier, client_id: 'c3', client_secret: 'c3-secret' })).json();
    expect((await jwtVerify(id_token, new TextEncoder().encode('c3-secret'))).payload).toMatchObject({ aud: 'c3', email_verified: false });
    idp.setJwks({ keys: [] });
    expect(await (await fetch(`${idp.issuer}/jwks`)).json()).toEqual({ keys: [] });
    idp.setJwks(null);
    expect((await (await fetch(`${idp.issuer}/jwks`)).json()).keys).toHaveLength(1);
  });
});
