import { z } from 'zod';
import { defineDelegated, defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { getConfig } from '@/lib/config';
import { providerHandler } from './provider';

const TAG = 'OAuth 2.0 / OIDC';
const metadata = z.record(z.string(), z.unknown());
const publicMetadata = {
  method: 'GET',
  tag: TAG,
  auth: { kind: 'public' },
  origin: 'none',
  idempotency: 'none',
  successStatus: 200,
  cacheControl: 'public, max-age=300',
} as const;

export const oidcOperations: AnyOperation[] = [
  defineDelegated({
    ...publicMetadata,
    id: 'getOpenIdConfiguration',
    path: '/.well-known/openid-configuration',
    summary: 'OpenID Connect discovery',
    response: metadata,
    nodeHandler: providerHandler,
  }),
  defineDelegated({
    ...publicMetadata,
    id: 'getOAuthAuthorizationServerMetadata',
    path: '/.well-known/oauth-authorization-server',
    summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
    response: metadata,
    nodeHandler: providerHandler,
  }),
  defineDelegated({
    ...publicMetadata,
    id: 'getJwks',
    path: '/.well-known/jwks.json',
    summary: 'Public OIDC signing keys (active and, during roll-over, retiring)',
    response: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
    nodeHandler: providerHandler,
  }),
  defineDelegated({
    id: 'registerClient',
    method: 'POST',
    path: '/oauth/register',
    tag: TAG,
    summary: 'Register a public native client (RFC 7591): PKCE, HTTPS or loopback redirect URIs',
    auth: { kind: 'public' },
    origin: 'none',
    rateLimit: 'oauth_register',
    idempotency: 'none',
    successStatus: 201,
    errorStatuses: [400],
    response: metadata,
    nodeHandler: providerHandler,
  }),
  defineOperation({
    ...publicMetadata,
    id: 'getProtectedResourceMetadata',
    path: '/.well-known/oauth-protected-resource/mcp',
    summary: 'Protected-resource metadata for {base_url}/mcp (RFC 9728)',
    cacheControl: 'public, max-age=300',
    response: z.object({
      resource: z.string(),
      authorization_servers: z.array(z.string()),
      bearer_methods_supported: z.array(z.string()),
      scopes_supported: z.array(z.string()),
      resource_documentation: z.string(),
    }),
    handler: async () => {
      const { baseUrl } = getConfig();
      return {
        resource: `${baseUrl}/mcp`,
        authorization_servers: [baseUrl],
        bearer_methods_supported: ['header'],
        scopes_supported: ['openid', 'offline_access', 'identity.profile.read', 'identity.email.read'],
        resource_documentation: `${baseUrl}/docs`,
      };
    },
  }),
];
