/**
 * A real, independent OpenID provider standing for a company's own identity provider (Entra ID,
 * Okta): a second node-oidc-provider on `https://localhost:PORT` with a test-CA certificate, its
 * built-in development login and consent pages, one RS256 key made at start, and accounts from an
 * in-memory table. Federated sign-in tests point the service at `issuer` (trusting `caFile`) and let
 * `signIn` play the person at the IdP's pages, so discovery, code exchange and ID token validation
 * are exercised against a certified implementation rather than a mock.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Adapter, AdapterPayload, ClientMetadata } from 'oidc-provider';
import { CookieJar, httpsFetch, serveHttps, type FixedTls } from './https';
import { createTestCa, type TestCa } from './test-ca';

export interface ExternalIdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface ExternalIdpAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface ExternalIdp {
  /** `https://localhost:PORT` */
  issuer: string;
  caFile: string;
  caPem: string;
  /** A confidential client (client_secret_basic or client_secret_post, code flow, PKCE S256 required). */
  addClient(client: ExternalIdpClient): void;
  setAccount(sub: string, claims: ExternalIdpAccount): void;
  /**
   * Opens `authorizationUrl` (one the service produced) with a fresh cookie jar, signs in as `sub` at
   * the IdP's login page, approves its consent page, and follows redirects until one leaves the IdP:
   * that URL (the service's callback, with code and state, or with an error) is returned.
   */
  signIn(authorizationUrl: string, sub: string): Promise<URL>;
  close(): Promise<void>;
}

/** Per-instance storage for every provider model (sessions, codes, grants, clients added later). */
function memoryAdapter(store: Map<string, AdapterPayload>) {
  const entries = (model: string) => [...store].filter(([key]) => key.startsWith(`${model}:`)).map(([, payload]) => payload);
  return (model: string): Adapter => ({
    upsert: async (id, payload) => void store.set(`${model}:${id}`, payload),
    find: async (id) => store.get(`${model}:${id}`),
    findByUid: async (uid) => entries(model).find((payload) => payload.uid === uid),
    findByUserCode: async (userCode) => entries(model).find((payload) => payload.userCode === userCode),
    consume: async (id) => void Object.assign(store.get(`${model}:${id}`) ?? {}, { consumed: Math.floor(Date.now() / 1000) }),
    destroy: async (id) => void store.delete(`${model}:${id}`),
    revokeByGrantId: async (grantId) => {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
    },
  });
}

const clientMetadata = (client: ExternalIdpClient): ClientMetadata => ({
  ...client,
  response_types: ['code'],
  grant_types: ['authorization_code'],
  // oidc-provider 9 accepts client_secret_post as well for a client registered with basic.
  token_endpoint_auth_method: 'client_secret_basic',
});

const readable = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);

/**
 * `ca`: the test CA to take a certificate from (a new one by default); `fixed`: serve with this
 * certificate (and trust its `caPem`) on this port instead, for a run whose service was told both
 * before the provider started (e2e).
 */
export async function startExternalIdp(
  options: { clients?: ExternalIdpClient[]; ca?: TestCa; fixed?: FixedTls & { caPem: string; caFile: string; port: number } } = {},
): Promise<ExternalIdp> {
  const { default: Provider } = await import('oidc-provider');
  const ca = options.fixed ?? options.ca ?? (await createTestCa());
  const accounts = new Map<string, ExternalIdpAccount>();
  const store = new Map<string, AdapterPayload>();
  // The issuer names the port, so the server listens before the provider exists.
  let handler: (req: IncomingMessage, res: ServerResponse) => unknown = (_req, res) => res.writeHead(503).end();
  const endpoint = await serveHttps(options.fixed ?? ca, (req, res) => void handler(req, res), options.fixed?.port);
  const issuer = endpoint.origin;

  const key = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: 'external-idp-rs256',
    alg: 'RS256',
    use: 'sig',
  };
  const provider = new Provider(issuer, {
    adapter: memoryAdapter(store),
    clients: (options.clients ?? []).map(clientMetadata),
    jwks: { keys: [key as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: () => ({ sub, ...account }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The scopes' claims go into the ID token too, as Entra and Okta put email there.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    features: { devInteractions: { enabled: true } },
    // Explicit, so the provider does not print a notice for each default.
    ttl: { AccessToken: 300, AuthorizationCode: 60, IdToken: 300, Interaction: 600, Session: 3600, Grant: 3600 },
  });
  provider.on('server_error', (_ctx, error) => console.error('external IdP server_error', error));
  handler = provider.callback();
  const fetch = httpsFetch(ca.caPem);

  async function signIn(authorizationUrl: string, sub: string): Promise<URL> {
    if (!accounts.has(sub)) throw new Error(`external IdP has no account ${sub} (setAccount first)`);
    const jar = new CookieJar();
    let url = new URL(authorizationUrl);
    let body: URLSearchParams | undefined;
    for (let step = 0; step < 20; step++) {
      const cookie = jar.header(url);
      const response = await fetch(url, { method: body ? 'POST' : 'GET', body, headers: cookie ? { cookie } : {} });
      jar.store(response, url);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url);
        body = undefined;
        if (url.origin !== issuer) return url;
        continue;
      }
      // An interaction page: the form posts `prompt` (login: with login and password; consent: alone).
      const html = await response.text();
      const form = response.ok ? /<form[^>]*action="([^"]+)"[\s\S]*?name="prompt" value="(\w+)"/.exec(html) : null;
      if (!form) throw new Error(`external IdP answered ${response.status} at ${url.pathname}: ${readable(html)}`);
      const prompt = form[2]!;
      url = new URL(form[1]!.replaceAll('&amp;', '&'), url);
      body = new URLSearchParams(prompt === 'login' ? { prompt, login: sub, password: 'any password' } : { prompt });
    }
    throw new Error('external IdP sign-in did not leave the IdP in 20 steps');
  }

  return {
    issuer,
    caFile: ca.caFile,
    caPem: ca.caPem,
    addClient: (client) => void store.set(`Client:${client.client_id}`, clientMetadata(client) as AdapterPayload),
    setAccount: (sub, claims) => void accounts.set(sub, { ...claims }),
    signIn,
    close: endpoint.close,
  };
}
