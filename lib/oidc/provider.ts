/**
 * The node-oidc-provider instance: created lazily (never at import time: `next build` imports route
 * modules), once per process, on globalThis (`next dev` may load this module per route bundle). A
 * failed creation is not cached. All state lives in Postgres through the Drizzle adapter.
 */
import type Provider from 'oidc-provider';
import type { NodeRequestHandler } from '@/lib/contract/operation';
import { getConfig } from '@/lib/config';
import { findAccount } from './account';
import { installHashedSecretComparison } from './client-secret';
import { concealLegacyModels, DrizzleAdapter } from './adapter';
import { renderError } from './error-page';
import { countTokenGrants } from './grant-metrics';
import { cookieKeys, ensureKeys, signingJwks } from './keys';
import { providerCookieNames, providerCookies, resumeCookieForUrlOnly, rootPathCookies } from './provider-cookies';
import { organizationBindingCheck, organizationParameterViolation, organizationTokenClaims } from './organization-binding';
import { holdUntrustedRedirect, TRUSTED_REDIRECTS_PROPERTY, untrustedClientCheck } from './redirect-trust';
import { apiResourceServerInfo, isClientCredentialsRequest } from './api-resource-servers';
import { recordIssuedJwt } from './issued-jwts';
import { introspectJwt, revokeJwt, withJwtAnswer } from './jwt-introspection';
import { findResourceServer } from './resources';
import { ceilingViolation, SELF_REGISTERED_PROPERTY } from './scope-ceiling';
import { claimsByScope, SCOPE_TABLE } from './scopes';
import { sessionTruthCheck } from './session-truth';

export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
  revocation: '/oauth/revoke',
  registration: '/oauth/register',
  jwks: '/.well-known/jwks.json',
  introspection: '/oauth/introspect',
} as const;

const holder = globalThis as unknown as { __identityProvider?: Promise<Provider> };

function refuseProviderFetch(input: URL | string | Request): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  return Promise.reject(new Error(`the provider makes no outbound requests (asked for ${url.host})`));
}

/** A new, independent instance. Use `getProvider`; tests build a second one to stand for another server. */
export async function createProvider(): Promise<Provider> {
  const config = getConfig();
  await ensureKeys(new Date());
  await concealLegacyModels();
  const { default: ProviderClass, errors, interactionPolicy } = await import('oidc-provider');
  // Loaded with the provider (it needs oidc-provider's error classes), never at import time.
  const { enforceRegistrationPolicy, REGISTRATION_POLICY_PROPERTY } = await import('./registration-policy');
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.add(sessionTruthCheck(interactionPolicy.Check));
  policy.get('consent')!.checks.add(untrustedClientCheck(interactionPolicy.Check));
  policy.get('consent')!.checks.add(organizationBindingCheck(interactionPolicy.Check));
  const provider = new ProviderClass(config.baseUrl, {
    // A single-use model redeemed twice at once: the loser's request fails with invalid_grant (adapter.ts).
    adapter: (model: string) => new DrizzleAdapter(model, undefined, (description) => new errors.InvalidGrant(description)),
    findAccount,
    jwks: { keys: (await signingJwks()) as never },
    // `__Host-` names over HTTPS, Path=/ (provider-cookies.ts).
    cookies: providerCookies(config.secureCookies, await cookieKeys()),
    routes: OAUTH_ROUTES,
    scopes: SCOPE_TABLE.map((s) => s.scope),
    claims: claimsByScope(),
    // RFC 9700 / OAuth 2.1: PKCE (S256 only in this provider version) for every client.
    pkce: { required: () => true },
    responseTypes: ['code'],
    // Portal clients' secrets are stored hashed (client-secret.ts): no method or algorithm may use the
    // secret as a key, so client_secret_jwt and every HMAC algorithm are off.
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    enabledJWA: {
      clientAuthSigningAlgValues: ['RS256', 'PS256', 'ES256', 'Ed25519', 'EdDSA'],
      requestObjectSigningAlgValues: ['RS256', 'PS256', 'ES256', 'Ed25519', 'EdDSA'],
    },
    // The self-registration marker is checked before the policy that sets it (registration-policy.ts).
    extraClientMetadata: {
      properties: [SELF_REGISTERED_PROPERTY, REGISTRATION_POLICY_PROPERTY, TRUSTED_REDIRECTS_PROPERTY],
      validator: enforceRegistrationPolicy as never,
    },
    // Not a new parameter: a check the provider runs on every authorization request (with or without
    // `resource`), after its own scope and resource checks. The client's `scope` metadata already
    // bounds a self-registered client; this adds the scopes it may ask for only with a resource.
    extraParams: {
      resource: (ctx, resource, client) => {
        const scope = ctx.oidc.params?.scope;
        const violation = ceilingViolation(client, scope, resource, config.baseUrl);
        if (violation) throw new errors.InvalidScope(violation, String(scope));
      },
      // The organization an organization-scoped authorization is bound to (organization-binding.ts);
      // membership is checked on the consent page, where the person is known.
      organization: (ctx, organization) => {
        const violation = organizationParameterViolation(organization, ctx.oidc.params?.scope);
        if (violation) throw new errors.InvalidRequest(violation);
      },
    },
    // Tokens of an organization-bound grant carry `organization_id` (code exchange and refresh alike).
    extraTokenClaims: organizationTokenClaims((description) => new errors.InvalidGrant(description)) as never,
    // Every JWT access token (a developer's API) is recorded, so introspection can tell it was revoked.
    formats: { customizers: { jwt: (_ctx, token, jwt) => recordIssuedJwt(token as never, jwt) } },
    // The provider fetches URLs some client metadata names (sector_identifier_uri, jwks_uri) with
    // plain fetch, outside the outbound guard (lib/platform): it may open no connection at all.
    // Registration refuses that metadata (registration-policy.ts); this stops whatever gets past.
    fetch: refuseProviderFetch,
    // Our own error page (error-page.ts), never the provider's default HTML.
    renderError: renderError as never,
    // RFC 7009 as the spec words it: revoking any token of a grant takes its refresh-token family.
    revokeGrantPolicy: () => true,
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // No `resource`: the provider's own token for our API and userinfo (ARCHITECTURE.md, OAuth).
        // A machine token is always for a developer's API: client credentials name one.
        defaultResource: (ctx) => {
          if (isClientCredentialsRequest(ctx)) throw new errors.InvalidTarget('client credentials need the resource indicator of an API');
          return undefined as unknown as string;
        },
        // A code or refresh token granted for a resource yields tokens for that resource only.
        useGrantedResource: () => true,
        getResourceServerInfo: async (ctx, resource, client) => {
          const server = findResourceServer(resource);
          if (server) return { scope: server.scope, audience: server.identifier, accessTokenFormat: 'opaque', accessTokenTTL: config.ttl.accessToken };
          const machine = isClientCredentialsRequest(ctx)
            ? {
                setHeader: (name: string, value: string) => ctx.set(name, value),
                tooManyRequests: (description: string) =>
                  Object.assign(new errors.OIDCProviderError(429, 'too_many_requests'), { error_description: description }),
              }
            : null;
          // At the token endpoint the grant is known (code or refresh): an organization-bound one narrows the permissions.
          const grantId = (ctx.oidc.entities as { Grant?: { jti: string } }).Grant?.jti;
          const api = await apiResourceServerInfo(resource, client.clientId, machine, grantId);
          if (!api) throw new errors.InvalidTarget();
          return api;
        },
      },
      // Machine tokens for developers' APIs, only with the permissions the API's owner granted the client.
      clientCredentials: { enabled: true },
      // Not offered until routed and tested: nothing is advertised that does not work.
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // RFC 7591 without RFC 7592 management: no registration access token (one more bearer secret)
      // and no registration_client_uri. Public native clients have nothing to update, and owners manage
      // applications in the developer portal (docs/decisions.md, OAuth).
      registration: { enabled: true, issueRegistrationAccessToken: false },
      // RFC 7009 §2.1: a client may revoke only its own tokens (others get the same 200, nothing happens).
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      // RFC 7662, as revocation: a client learns only about its own tokens (others are `active: false`).
      // JWT access tokens for developers' APIs are answered by jwt-introspection.ts.
      introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
    },
    ttl: {
      // A developer's API sets its own lifetime (api-resource-servers.ts); ours is the configured one.
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? config.ttl.accessToken,
      AuthorizationCode: config.ttl.authorizationCode,
      IdToken: config.ttl.accessToken,
      // Absolute, not sliding: a rotated refresh token expires when the chain's first token would
      // (iiat, the first issue), so rotation never extends access past the grant's lifetime.
      RefreshToken: (_ctx, token) => Math.max(1, (token as { iiat?: number }).iiat! + config.ttl.refreshToken - Math.floor(Date.now() / 1000)),
      Grant: config.ttl.refreshToken,
      Session: config.ttl.sessionAbsolute,
      Interaction: config.ttl.sessionIdle,
    },
    interactions: { policy, url: (_ctx, interaction) => `/consent/${interaction.uid}` },
  });
  // The edge sets X-Forwarded-Host/Proto from BASE_URL, so every URL the provider builds is the issuer's.
  provider.proxy = true;
  // Hash-to-hash client secret comparison for portal applications (client-secret.ts).
  installHashedSecretComparison(provider.Client);
  // Emitted before the provider picks between an error redirect and renderError (redirect-trust.ts).
  provider.on('authorization.error', holdUntrustedRedirect);
  provider.on('server_error', holdUntrustedRedirect);
  countTokenGrants(provider);
  return provider;
}

export async function getProvider(): Promise<Provider> {
  if (!holder.__identityProvider) {
    holder.__identityProvider = createProvider().catch((error: unknown) => {
      holder.__identityProvider = undefined;
      throw error;
    });
  }
  return holder.__identityProvider;
}

/**
 * OIDC Core 3.1.2.1 form-POST authorization requests are answered with a 303 to the same request as a
 * GET. A cross-site POST carries none of the browser's SameSite=Lax cookies (ours included), and the
 * provider's own POST support would need SameSite=None cookies; the redirected GET is a top-level
 * navigation that carries them. The provider then applies every rule as for any GET.
 */
export async function formPostAuthorizationHandler(): Promise<NodeRequestHandler> {
  return async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    res.statusCode = 303;
    res.setHeader('Location', `${OAUTH_ROUTES.authorization}?${form}`);
    res.end();
  };
}

// Koa composes its middleware on every callback() call: build the handler once per provider.
const handlers = new WeakMap<Provider, NodeRequestHandler>();

export async function providerHandler(): Promise<NodeRequestHandler> {
  const provider = await getProvider();
  let handler = handlers.get(provider);
  if (!handler) {
    // The resume cookie's path is fixed by the provider: Path=/ is set on its way out (provider-cookies.ts).
    handler = rootPathCookies(provider.callback() as NodeRequestHandler, [providerCookieNames(getConfig().secureCookies).resume]);
    handlers.set(provider, handler);
  }
  return handler;
}

/**
 * The resume step (GET /oauth/authorize/{uid}) takes no parameters: the provider resumes from the
 * stored interaction, and the URL it issues carries no query. Its error handler (an expired or unknown
 * interaction) still reads client_id, redirect_uri and state from the query, and with the client_id of
 * a client that has one redirect URI it fails with a TypeError (oidc-provider 9.13,
 * oneRedirectUriClients without ctx.oidc.params): a 500 for anyone who adds `?client_id=`. The query is
 * therefore dropped before the provider sees the request, and so is a resume cookie of another
 * interaction.
 */
export async function resumeHandler(): Promise<NodeRequestHandler> {
  const handler = await gatedProviderHandler();
  const resumeName = providerCookieNames(getConfig().secureCookies).resume;
  return (req, res) => {
    req.url = (req.url ?? '/').split('?')[0];
    // The resume cookie is at Path=/: it counts only on its own interaction's URL (provider-cookies.ts).
    const cookie = resumeCookieForUrlOnly(req.headers.cookie, req.url!.split('/').pop() ?? '', resumeName);
    if (cookie === undefined) delete req.headers.cookie;
    else req.headers.cookie = cookie;
    return handler(req, res);
  };
}

/** Token introspection (RFC 7662): JWTs for developers' APIs answered by jwt-introspection.ts, the rest by the provider. */
export async function introspectionHandler(): Promise<NodeRequestHandler> {
  if (!getConfig().oauthEnabled) return gatedProviderHandler();
  return withJwtAnswer(await providerHandler(), introspectJwt, await getProvider());
}

/** Token revocation (RFC 7009): the same split as introspection. */
export async function revocationHandler(): Promise<NodeRequestHandler> {
  if (!getConfig().oauthEnabled) return gatedProviderHandler();
  return withJwtAnswer(await providerHandler(), revokeJwt, await getProvider());
}

/**
 * The production OAuth gate (OAUTH_ENABLED): while it is off, endpoints that issue or use tokens
 * answer 503 temporarily_unavailable in the OAuth error format; metadata stays public.
 */
export async function gatedProviderHandler(): Promise<NodeRequestHandler> {
  if (getConfig().oauthEnabled) return providerHandler();
  return (_req, res) => {
    res.statusCode = 503;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ error: 'temporarily_unavailable', error_description: 'OAuth is switched off on this deployment.' }));
  };
}
