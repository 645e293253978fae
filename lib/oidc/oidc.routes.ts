import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { defineDelegated, defineOperation, result, type AnyOperation } from '@/lib/contract/operation';
import { getConfig } from '@/lib/config';
import { authorizationContext, decide } from './consent';
import { gatedProviderHandler, providerHandler } from './provider';
import { SCOPE_TABLE } from './scopes';

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

const protocol = { tag: TAG, auth: { kind: 'public' }, origin: 'none', idempotency: 'none', response: metadata, nodeHandler: gatedProviderHandler } as const;

export const oidcOperations: AnyOperation[] = [
  defineDelegated({
    ...protocol,
    id: 'authorize',
    method: 'GET',
    path: '/oauth/authorize',
    summary: 'OAuth 2.0 / OIDC authorization endpoint (code flow with PKCE S256); continues at the hosted sign-in and consent',
    // The spec lists the consent POST at this path; the GET every OIDC client sends is the standard endpoint.
    extension: true,
    origin: 'if-present',
    successStatus: 303,
    errorStatuses: [302],
  }),
  defineDelegated({
    ...protocol,
    id: 'resumeAuthorization',
    method: 'GET',
    path: '/oauth/authorize/{uid}',
    summary: 'Where the browser resumes after consent; redirects to the client with the code (and iss, RFC 9207)',
    extension: true,
    origin: 'if-present',
    successStatus: 303,
  }),
  defineOperation({
    id: 'getAuthorizationContext',
    method: 'GET',
    path: '/oauth/authorize/context',
    tag: TAG,
    summary: 'What a pending authorization asks for (client, redirect host, scopes in plain words, resource)',
    auth: { kind: 'public' },
    origin: 'if-present',
    idempotency: 'none',
    query: z.object({ interaction_id: z.string().min(1).max(64) }),
    successStatus: 200,
    errorStatuses: [404],
    response: z.object({
      interaction_id: z.string(),
      client: z.object({ client_id: z.string(), client_name: z.string() }),
      redirect_host: z.string(),
      scopes: z.array(z.object({ scope: z.string(), description: z.string() })),
      resource: z.string().nullable(),
      prompt: z.string(),
    }),
    handler: ({ query }) => authorizationContext(query.interaction_id),
  }),
  defineOperation({
    id: 'decideAuthorization',
    method: 'POST',
    path: '/oauth/authorize',
    tag: TAG,
    summary: 'The signed-in person approves or denies a pending authorization (from the hosted consent page)',
    auth: { kind: 'session' },
    origin: 'required',
    idempotency: 'none',
    acceptsForm: true,
    body: z.object({ interaction_id: z.string().min(1).max(64), decision: z.enum(['approve', 'deny']) }),
    successStatus: 200,
    errorStatuses: [303, 404],
    response: z.object({ redirect_to: z.string() }),
    handler: async ({ actor, body, now, requestId, bodyFormat }) => {
      const decision = await decide(actorOfKind(actor, 'session'), body.interaction_id, body.decision, now, requestId);
      // A plain HTML form gets the redirect itself; JSON callers navigate on their own.
      return bodyFormat === 'form' ? result(decision, { status: 303, headers: { Location: decision.redirect_to } }) : decision;
    },
  }),
  defineDelegated({
    ...protocol,
    id: 'token',
    method: 'POST',
    path: '/oauth/token',
    summary: 'Token endpoint (form-encoded): authorization_code with code_verifier, or refresh_token (rotating)',
    auth: { kind: 'client_auth' },
    successStatus: 200,
    errorStatuses: [401, 503],
  }),
  defineDelegated({
    ...protocol,
    id: 'userinfo',
    method: 'GET',
    path: '/oauth/userinfo',
    summary: 'Scoped OIDC claims of the token owner',
    auth: { kind: 'bearer', accepts: ['oauth'], scopes: [] },
    successStatus: 200,
    errorStatuses: [401, 403],
  }),
  defineDelegated({
    ...protocol,
    id: 'revoke',
    method: 'POST',
    path: '/oauth/revoke',
    summary: 'Revoke a token (RFC 7009); a refresh token takes its whole family with it',
    successStatus: 200,
  }),
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
    errorStatuses: [400, 503],
    response: metadata,
    nodeHandler: gatedProviderHandler,
  }),
  protectedResource({
    id: 'getProtectedResourceMetadata',
    path: '/.well-known/oauth-protected-resource/mcp',
    summary: 'Protected-resource metadata for {base_url}/mcp (RFC 9728)',
    resource: (base) => `${base}/mcp`,
    scopes: ['openid', 'offline_access', 'identity.profile.read', 'identity.email.read'],
  }),
  protectedResource({
    id: 'getApiProtectedResourceMetadata',
    path: '/.well-known/oauth-protected-resource',
    summary: "Protected-resource metadata for this service's API (RFC 9728), named in every Bearer challenge",
    extension: true,
    resource: (base) => base,
    scopes: SCOPE_TABLE.filter((s) => !s.aliasOf && s.scope !== 'openid' && s.scope !== 'offline_access').map((s) => s.scope),
  }),
];

function protectedResource(input: { id: string; path: string; summary: string; extension?: boolean; resource: (base: string) => string; scopes: string[] }) {
  return defineOperation({
    ...publicMetadata,
    id: input.id,
    path: input.path,
    summary: input.summary,
    extension: input.extension,
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
        resource: input.resource(baseUrl),
        authorization_servers: [baseUrl],
        bearer_methods_supported: ['header'],
        scopes_supported: input.scopes,
        resource_documentation: `${baseUrl}/docs`,
      };
    },
  });
}
