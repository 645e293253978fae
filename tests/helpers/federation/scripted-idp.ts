/**
 * A minimal OpenID provider whose answers the test scripts, for the refusals a real provider never
 * provokes: an ID token for another audience, a stale or future one, a wrong nonce or issuer, an
 * unverified email, HS256 or `none`, a signature by a key not in the JWKS, discovery metadata naming
 * another issuer or a plain-http endpoint. Served like the external IdP (test-CA certificate,
 * `https://localhost:PORT`). `/authorize` approves at once (no login page): it records the request
 * and redirects to `redirect_uri` with a code; `/token` checks PKCE and answers with the ID token.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { httpsFetch, serveHttps } from './https';
import { createTestCa, type TestCa } from './test-ca';

export interface IdTokenClaims {
  iss: string;
  aud: string | string[];
  sub: string;
  email?: string;
  email_verified?: boolean;
  nonce?: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

/** Claims for the next ID token only (a claim set to `undefined` is left out), and how to sign it. */
export type NextTokenOverrides = Partial<IdTokenClaims> & {
  /** HS256 is keyed with the client secret the token request presented; `none` is unsigned. */
  alg?: 'HS256' | 'none';
  /** RS256 by a fresh key under the published `kid`: a signature the JWKS cannot verify. */
  signWithOtherKey?: boolean;
};

export interface ScriptedIdp {
  /** `https://localhost:PORT` */
  issuer: string;
  caFile: string;
  caPem: string;
  /** The last /authorize query (client_id, redirect_uri, state, nonce, code_challenge, ...). */
  readonly lastAuthorization: URLSearchParams | null;
  /** The last /token form and its Authorization header (how the client authenticated). */
  readonly lastTokenRequest: { params: URLSearchParams; authorization: string | undefined } | null;
  /** Token requests answered so far (refused ones included). */
  readonly tokenRequests: number;
  /** Requests `authorizationUrl` (the IdP approves at once) and returns where it redirects: the callback with code and state. */
  authorize(authorizationUrl: string | URL): Promise<URL>;
  /** Who signs in (default sub `scripted-user`, email `user@example.com`, verified). */
  setSubject(sub: string, claims: { email: string; email_verified?: boolean }): void;
  nextToken(overrides: NextTokenOverrides): void;
  /** Merged into the discovery document from now on (e.g. `{ issuer: 'https://other.example' }`). */
  setMetadataOverrides(overrides: Record<string, unknown>): void;
  /** Served at /jwks instead of the real key (null: the real key again). */
  setJwks(jwks: { keys: object[] } | null): void;
  close(): Promise<void>;
}

const KID = 'scripted-idp-rs256';
const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

function send(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The client secret from HTTP Basic (RFC 6749 §2.3.1: form-encoded inside base64) or the form. */
function clientSecret(authorization: string | undefined, form: URLSearchParams): string | undefined {
  const basic = /^Basic (.+)$/i.exec(authorization ?? '')?.[1];
  if (!basic) return form.get('client_secret') ?? undefined;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  return decodeURIComponent(decoded.slice(decoded.indexOf(':') + 1).replace(/\+/g, ' '));
}

export async function startScriptedIdp(options: { ca?: TestCa } = {}): Promise<ScriptedIdp> {
  const ca = options.ca ?? (await createTestCa());
  const keys = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(keys.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  let subject = { sub: 'scripted-user', email: 'user@example.com', email_verified: true };
  let next: NextTokenOverrides = {};
  let metadataOverrides: Record<string, unknown> = {};
  let jwksOverride: { keys: object[] } | null = null;
  let lastAuthorization: URLSearchParams | null = null;
  let lastTokenRequest: ScriptedIdp['lastTokenRequest'] = null;
  let tokenRequests = 0;
  const codes = new Map<string, URLSearchParams>();

  async function idToken(authorization: URLSearchParams, secret: string | undefined): Promise<string> {
    const { alg, signWithOtherKey, ...overrides } = next;
    next = {};
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: issuer,
      aud: authorization.get('client_id') ?? '',
      ...subject,
      nonce: authorization.get('nonce') ?? undefined,
      iat: now,
      exp: now + 300,
      ...overrides,
    };
    const payload = JSON.parse(JSON.stringify(claims)); // drops claims overridden to undefined
    if (alg === 'none') return `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url(JSON.stringify(payload))}.`;
    if (alg === 'HS256')
      return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(new TextEncoder().encode(secret ?? 'no client secret presented'));
    let key: CryptoKey = keys.privateKey;
    if (signWithOtherKey) key = (await generateKeyPair('RS256')).privateKey;
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' }).sign(key);
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    tokenRequests++;
    const form = await readForm(req);
    lastTokenRequest = { params: form, authorization: req.headers.authorization };
    const authorization = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    if (form.get('grant_type') !== 'authorization_code' || !authorization) return send(res, 400, { error: 'invalid_grant', error_description: 'unknown code' });
    if (form.get('redirect_uri') !== authorization.get('redirect_uri'))
      return send(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
    const challenge = createHash('sha256')
      .update(form.get('code_verifier') ?? '')
      .digest('base64url');
    if (challenge !== authorization.get('code_challenge')) return send(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
    const id_token = await idToken(authorization, clientSecret(req.headers.authorization, form));
    send(res, 200, { access_token: base64url(randomBytes(24)), token_type: 'Bearer', expires_in: 300, id_token });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', issuer);
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return send(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        ...metadataOverrides,
      });
    }
    if (req.method === 'GET' && url.pathname === '/jwks') return send(res, 200, jwksOverride ?? { keys: [publicJwk] });
    if (req.method === 'GET' && url.pathname === '/authorize') {
      lastAuthorization = url.searchParams;
      const redirectUri = url.searchParams.get('redirect_uri');
      if (!redirectUri) return send(res, 400, { error: 'invalid_request', error_description: 'redirect_uri missing' });
      const code = base64url(randomBytes(24));
      codes.set(code, url.searchParams);
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      const state = url.searchParams.get('state');
      if (state !== null) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') return token(req, res);
    send(res, 404, { error: 'not_found' });
  }

  const endpoint = await serveHttps(ca, (req, res) =>
    handle(req, res).catch((error: unknown) => {
      console.error('scripted IdP failed', error);
      if (!res.headersSent) send(res, 500, { error: 'server_error' });
    }),
  );
  const issuer = endpoint.origin;
  const fetch = httpsFetch(ca.caPem);

  async function authorize(authorizationUrl: string | URL): Promise<URL> {
    const response = await fetch(authorizationUrl);
    const location = response.headers.get('location');
    if (response.status !== 302 || !location) throw new Error(`scripted IdP answered ${response.status}: ${await response.text()}`);
    return new URL(location);
  }

  return {
    issuer,
    caFile: ca.caFile,
    caPem: ca.caPem,
    get lastAuthorization() {
      return lastAuthorization;
    },
    get lastTokenRequest() {
      return lastTokenRequest;
    },
    get tokenRequests() {
      return tokenRequests;
    },
    authorize,
    setSubject: (sub, claims) => void (subject = { sub, email: claims.email, email_verified: claims.email_verified ?? true }),
    nextToken: (overrides) => void (next = { ...overrides }),
    setMetadataOverrides: (overrides) => void (metadataOverrides = { ...overrides }),
    setJwks: (jwks) => void (jwksOverride = jwks),
    close: endpoint.close,
  };
}
