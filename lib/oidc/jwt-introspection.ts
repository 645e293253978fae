/**
 * Introspection (RFC 7662) and revocation (RFC 7009) of the JWT access tokens issued for developers'
 * APIs. node-oidc-provider refuses structured tokens at both endpoints, so a JWT is answered here and
 * every other token goes on to the provider. The caller authenticates as at the token endpoint (a
 * confidential client with its secret, Basic or in the form; a public client by its id alone) and
 * sees only its own tokens, or, for the API's own backend (its resource server), the API's tokens. A JWT is active while its signature and claims verify, its record exists
 * (issued-jwts.ts: gone with a revoked token, grant, client or account), and its API is enabled.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import type Provider from 'oidc-provider';
import { getConfig } from '@/lib/config';
import { basicCredentials } from '@/lib/contract/authorization-header';
import type { NodeRequestHandler } from '@/lib/contract/operation';
import { findApiResourceServer, type ApiResourceServer } from './api-resource-servers';
import { findIssuedJwt, forgetIssuedJwt, type IssuedJwt } from './issued-jwts';
import { publicJwk, signingJwks } from './keys';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const INACTIVE: Answer = { status: 200, body: { active: false } };
const INVALID_CLIENT: Answer = { status: 401, body: { error: 'invalid_client', error_description: 'client authentication failed' } };

/** A JWT access token: three parts whose header says `at+jwt` (our opaque tokens have no dots). */
export function isJwtAccessToken(value: string): boolean {
  try {
    return value.split('.').length === 3 && decodeProtectedHeader(value).typ === 'at+jwt';
  } catch {
    return false;
  }
}

/** The client the request authenticates as, or null (unknown client, wrong or missing secret). */
async function callerOf(provider: Provider, authorization: string | undefined, form: URLSearchParams) {
  const basic = basicCredentials(authorization ?? null);
  const clientId = basic.client_id ?? form.get('client_id');
  const secret = basic.client_id !== undefined ? basic.client_secret : form.get('client_secret');
  if (!clientId) return null;
  const client = await provider.Client.find(clientId);
  if (!client) return null;
  if (client.clientAuthMethod === 'none') return secret ? null : client;
  if (client.clientAuthMethod !== 'client_secret_basic' && client.clientAuthMethod !== 'client_secret_post') return null;
  return secret && (await client.compareClientSecret(secret)) ? client : null;
}

const keySets = new WeakMap<Provider, Promise<ReturnType<typeof createLocalJWKSet>>>();

/**
 * The public keys this provider instance publishes and signs with, read once per instance as the
 * provider itself reads them at start (a key roll-over takes effect with a restart, keys.ts).
 */
function publishedKeys(provider: Provider): Promise<ReturnType<typeof createLocalJWKSet>> {
  let keys = keySets.get(provider);
  if (!keys) {
    keys = signingJwks().then((jwks) => createLocalJWKSet({ keys: jwks.map(publicJwk) as JSONWebKeySet['keys'] }));
    // A failed read is not kept: the next request tries again.
    keys.catch(() => keySets.delete(provider));
    keySets.set(provider, keys);
  }
  return keys;
}

/**
 * The token's record and its API, when its signature and claims verify and nothing it depends on was
 * revoked (the token, its grant, its client, the API).
 */
async function liveRecord(provider: Provider, token: string, now: Date): Promise<{ record: IssuedJwt; api: ApiResourceServer } | null> {
  const keys = await publishedKeys(provider);
  let jti: string;
  try {
    const { payload } = await jwtVerify(token, keys, { issuer: getConfig().baseUrl, typ: 'at+jwt', currentDate: now });
    jti = String(payload.jti);
  } catch {
    return null;
  }
  const record = await findIssuedJwt(jti, now);
  if (!record) return null;
  if (record.grantId && !(await provider.Grant.find(record.grantId))) return null;
  if (!(await provider.Client.find(record.clientId))) return null;
  const api = await findApiResourceServer(record.aud);
  return api ? { record, api } : null;
}

export async function introspectJwt(provider: Provider, token: string, authorization: string | undefined, form: URLSearchParams, now: Date): Promise<Answer> {
  const caller = await callerOf(provider, authorization, form);
  if (!caller) return INVALID_CLIENT;
  const live = await liveRecord(provider, token, now);
  // Another client's token is as inactive as a revoked one (RFC 7662 §2.2: nothing more is told),
  // unless the caller is the API's own backend, which its owner named as its resource server.
  if (!live || (live.record.clientId !== caller.clientId && live.api.resourceServerClientId !== caller.clientId)) return INACTIVE;
  const { record } = live;
  return {
    status: 200,
    body: {
      active: true,
      iss: getConfig().baseUrl,
      sub: record.accountId ?? record.clientId,
      aud: record.aud,
      client_id: record.clientId,
      ...(record.scope ? { scope: record.scope } : {}),
      iat: record.iat,
      exp: record.exp,
      jti: record.jti,
      // A DPoP-bound token (RFC 9449 §6.2): the resource server checks the proof against this key.
      ...(record.jkt ? { token_type: 'DPoP', cnf: { jkt: record.jkt } } : { token_type: 'Bearer' }),
      ...(record.organizationId ? { organization_id: record.organizationId } : {}),
    },
  };
}

/** RFC 7009: the client's own token is revoked; anything else changes nothing. Either way 200. */
export async function revokeJwt(provider: Provider, token: string, authorization: string | undefined, form: URLSearchParams, now: Date): Promise<Answer> {
  const caller = await callerOf(provider, authorization, form);
  if (!caller) return INVALID_CLIENT;
  const live = await liveRecord(provider, token, now);
  if (live && live.record.clientId === caller.clientId) await forgetIssuedJwt(live.record.jti);
  return { status: 200, body: {} };
}

/**
 * The endpoint's handler: a JWT access token is answered by `answer`, anything else by the provider
 * (the request body, already read here, is replayed to it).
 */
export function withJwtAnswer(
  handler: NodeRequestHandler,
  answer: (provider: Provider, token: string, authorization: string | undefined, form: URLSearchParams, now: Date) => Promise<Answer>,
  provider: Provider,
): NodeRequestHandler {
  return async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const form = new URLSearchParams(body.toString('utf8'));
    const token = form.get('token') ?? '';
    if (!isJwtAccessToken(token)) {
      const replayed = Object.assign(Readable.from(body.length ? [body] : []), {
        method: req.method,
        url: req.url,
        headers: req.headers,
        httpVersion: req.httpVersion,
        socket: req.socket,
      }) as unknown as IncomingMessage;
      return handler(replayed, res);
    }
    const result = await answer(provider, token, req.headers.authorization, form, new Date());
    res.statusCode = result.status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    if (result.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="token introspection"');
    res.end(JSON.stringify(result.body));
  };
}
