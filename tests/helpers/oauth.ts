/**
 * An in-process relying party and browser for OAuth integration tests: every step runs through the
 * real pipeline and the real provider (authorize, hosted consent decision, resume, token), with a
 * cookie jar standing in for the browser. End-to-end tests do the same with Chromium and openid-client.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { call, operation, ORIGIN } from './http';
import { DrizzleAdapter } from '@/lib/oidc/adapter';
import { getProvider } from '@/lib/oidc/provider';
import type { Browser } from './accounts';

export const REDIRECT = 'http://127.0.0.1:50010/callback';
let registrations = 0;

export async function registerNativeClient(redirectUri = REDIRECT): Promise<string> {
  const response = await call(operation('POST', '/oauth/register'), {
    body: {
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [redirectUri],
    },
    headers: { 'x-forwarded-for': `2001:db8:c0::${(registrations += 1).toString(16)}` },
  });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

let portalClients = 0;

/**
 * A public native client as the developer portal will register it (a trusted path, not POST
 * /oauth/register): no self-registration marker, so the whole scope table is open to it.
 */
export async function registerPortalClient(redirectUri = REDIRECT): Promise<string> {
  const clientId = `portal-client-${(portalClients += 1)}`;
  await new DrizzleAdapter('Client').upsert(clientId, {
    client_id: clientId,
    client_name: `Portal application ${portalClients}`,
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: [redirectUri],
  });
  return clientId;
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Cookies by name, as a browser on one origin keeps them (paths ignored: every path is ours). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  constructor(browser?: Browser) {
    if (browser) this.set(browser.cookie);
  }

  set(pair: string) {
    const [name, ...value] = pair.split('=');
    if (value.join('=') === '') this.cookies.delete(name!);
    else this.cookies.set(name!, value.join('='));
  }

  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\b/i.test(a));
      if (expired) this.cookies.delete(pair!.split('=')[0]!);
      else this.set(pair!);
    }
    return response;
  }

  /** Cookie values by name (for tests that look for them where they must not be). */
  values(): Record<string, string> {
    return Object.fromEntries(this.cookies);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

const pathOf = (location: string) => {
  const url = new URL(location, ORIGIN);
  return { path: url.pathname, query: url.search.slice(1) };
};

/** GET /oauth/authorize as a browser arriving from the relying party's site. */
export async function authorize(jar: CookieJar, params: Record<string, string>): Promise<Response> {
  const response = await call(operation('GET', '/oauth/authorize'), {
    query: new URLSearchParams(params).toString(),
    headers: { cookie: jar.header(), 'sec-fetch-site': 'cross-site' },
  });
  return jar.store(response);
}

export function authorizationParams(clientId: string, challenge: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    ...extra,
  };
}

export function interactionOf(response: Response): string {
  const location = response.headers.get('location') ?? '';
  const match = /^\/consent\/([^/?]+)$/.exec(location);
  if (!match) throw new Error(`expected the consent page, got ${response.status} ${location}`);
  return match[1]!;
}

export async function decideAs(browser: Browser, interactionId: string, decision: 'approve' | 'deny' = 'approve'): Promise<Response> {
  return call(operation('POST', '/oauth/authorize'), {
    body: { interaction_id: interactionId, decision },
    headers: { origin: ORIGIN, cookie: browser.cookie, 'x-csrf-token': browser.csrf },
  });
}

/** Follows the provider's resume redirect to the final redirect back to the relying party. */
export async function resume(jar: CookieJar, redirectTo: string): Promise<URL> {
  const { path, query } = pathOf(redirectTo);
  const uid = path.split('/').pop()!;
  const response = jar.store(
    await call(operation('GET', '/oauth/authorize/{uid}'), { params: { uid }, query, headers: { cookie: jar.header(), 'sec-fetch-site': 'same-origin' } }),
  );
  const location = response.headers.get('location') ?? 'http://invalid/';
  if (location.startsWith('/')) throw new Error(`resume answered ${response.status} ${location}`);
  return new URL(location);
}

/** The whole browser leg: authorize, approve on the consent screen, resume; returns the callback URL. */
export async function approve(jar: CookieJar, browser: Browser, params: Record<string, string>): Promise<URL> {
  const started = await authorize(jar, params);
  const decided = await decideAs(browser, interactionOf(started));
  if (decided.status !== 200) throw new Error(`decision failed: ${decided.status} ${await decided.text()}`);
  return resume(jar, ((await decided.json()) as { redirect_to: string }).redirect_to);
}

export async function tokenRequest(form: Record<string, string>): Promise<Response> {
  return call(operation('POST', '/oauth/token'), {
    rawBody: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

export async function exchangeCode(clientId: string, callback: URL, verifier: string, extra: Record<string, string> = {}): Promise<Response> {
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}`);
  return tokenRequest({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, ...extra });
}

/** A real access token, issued by the provider's own models (with a real grant) for a registered client. */
export async function mintAccessToken(userId: string, scope: string, options: { expiresIn?: number; audience?: string; organizationId?: string } = {}) {
  const provider = await getProvider();
  const client = await provider.Client.find(await registerNativeClient());
  const grant = new provider.Grant({ accountId: userId, clientId: client!.clientId });
  grant.addOIDCScope(scope);
  const grantId = await grant.save();
  const token = new provider.AccessToken({
    accountId: userId,
    client: client!,
    grantId,
    gty: 'authorization_code',
    scope,
    expiresIn: options.expiresIn ?? 600,
  });
  if (options.audience) token.setAudience(options.audience);
  // The organization binding, as the provider records it for an authorization bound to one.
  if (options.organizationId) token.extra = { organization_id: options.organizationId };
  return { value: await token.save(), token };
}

/**
 * Where a refused authorization request ended: our error page (with the way back to the client's
 * redirect URI, when it has one: untrusted clients) or a redirect straight to the client. `answer`
 * holds the response parameters the client gets (query or fragment), if any.
 */
export async function authorizationOutcome(response: Response) {
  const location = response.headers.get('location') ?? '';
  if (!location.startsWith('/oauth/error?')) {
    const url = new URL(location || 'http://invalid/');
    return {
      landing: 'redirect' as const,
      page: null,
      redirectUri: `${url.origin}${url.pathname}`,
      answer: new URLSearchParams(url.hash ? url.hash.slice(1) : url.search),
    };
  }
  const page = new URL(location, ORIGIN).searchParams;
  const returnId = page.get('return');
  if (!returnId) return { landing: 'error_page' as const, page, redirectUri: null, answer: null };
  const back = (await (await call(operation('GET', '/oauth/error/context'), { query: new URLSearchParams({ return_id: returnId }).toString() })).json()) as {
    continue_to: { url: string };
  };
  const url = new URL(back.continue_to.url);
  return {
    landing: 'error_page' as const,
    page,
    redirectUri: `${url.origin}${url.pathname}`,
    answer: new URLSearchParams(url.hash ? url.hash.slice(1) : url.search),
  };
}

let relyingParties = 0;

/** openid-client's HTTP, served by the real pipeline in-process, from one client address. */
export function throughPipeline(address = `2001:db8:e::${(relyingParties += 1).toString(16)}`): client.CustomFetch {
  return async (input, init) => {
    const request = new Request(input, init as RequestInit);
    const url = new URL(request.url);
    const headers = { ...Object.fromEntries(request.headers), 'x-forwarded-for': address };
    const body = request.method === 'GET' ? undefined : await request.text();
    return call(operation(request.method, url.pathname), { headers, query: url.search.slice(1), rawBody: body });
  };
}

/**
 * An independent relying party (openid-client, a certified RP library): discovers the provider,
 * registers a public native client, and talks to the token and resource endpoints itself.
 */
export async function relyingParty(name = 'Independent RP', redirectUri = REDIRECT): Promise<client.Configuration> {
  return client.dynamicClientRegistration(
    new URL(ORIGIN),
    {
      client_name: name,
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [redirectUri],
    },
    undefined,
    { execute: [client.allowInsecureRequests], [client.customFetch]: throughPipeline() },
  );
}

/** An openid-client authorization request (PKCE S256, consent prompted): its parameters and what to expect back. */
export async function consentRequest(rp: client.Configuration, scope: string, extra: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp, {
    redirect_uri: REDIRECT,
    scope,
    prompt: 'consent',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { params: Object.fromEntries(url.searchParams), verifier, state };
}

/** The browser leg for an openid-client authorization URL (hosted consent approved), then the code grant. */
export async function authorizeWithConsent(rp: client.Configuration, jar: CookieJar, browser: Browser, scope: string, extra: Record<string, string> = {}) {
  const { params, verifier, state } = await consentRequest(rp, scope, extra);
  const callback = await approve(jar, browser, params);
  return client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: state });
}
