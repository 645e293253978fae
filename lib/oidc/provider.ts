/**
 * The node-oidc-provider instance: created lazily (never at import time: `next build` imports route
 * modules), once per process, on globalThis (`next dev` may load this module per route bundle). A
 * failed creation is not cached. All state lives in Postgres through the Drizzle adapter.
 */
import type Provider from 'oidc-provider';
import type { NodeRequestHandler } from '@/lib/contract/operation';
import { getConfig } from '@/lib/config';
import { findAccount } from './account';
import { DrizzleAdapter } from './adapter';
import { cookieKeys, ensureKeys, signingJwks } from './keys';
import { claimsByScope, SCOPE_TABLE } from './scopes';
import { loadExistingGrant } from './session-truth';

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

async function createProvider(): Promise<Provider> {
  const config = getConfig();
  await ensureKeys(new Date());
  const { default: ProviderClass } = await import('oidc-provider');
  // Loaded with the provider (it needs oidc-provider's error classes), never at import time.
  const { enforceRegistrationPolicy, REGISTRATION_POLICY_PROPERTY } = await import('./registration-policy');
  const provider = new ProviderClass(config.baseUrl, {
    adapter: DrizzleAdapter,
    findAccount,
    loadExistingGrant,
    jwks: { keys: (await signingJwks()) as never },
    cookies: { keys: await cookieKeys() },
    routes: OAUTH_ROUTES,
    scopes: SCOPE_TABLE.map((s) => s.scope),
    claims: claimsByScope(),
    // RFC 9700 / OAuth 2.1: PKCE (S256 only in this provider version) for every client.
    pkce: { required: () => true },
    responseTypes: ['code'],
    extraClientMetadata: { properties: [REGISTRATION_POLICY_PROPERTY], validator: enforceRegistrationPolicy as never },
    features: {
      devInteractions: { enabled: false },
      // Not offered until routed and tested: nothing is advertised that does not work.
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
    },
    ttl: {
      AccessToken: config.ttl.accessToken,
      AuthorizationCode: config.ttl.authorizationCode,
      RefreshToken: config.ttl.refreshToken,
      Grant: config.ttl.refreshToken,
      Session: config.ttl.sessionAbsolute,
      Interaction: config.ttl.sessionIdle,
    },
    interactions: { url: (_ctx, interaction) => `/consent/${interaction.uid}` },
  });
  // The edge sets X-Forwarded-Host/Proto from BASE_URL, so every URL the provider builds is the issuer's.
  provider.proxy = true;
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

export async function providerHandler(): Promise<NodeRequestHandler> {
  return (await getProvider()).callback() as NodeRequestHandler;
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
