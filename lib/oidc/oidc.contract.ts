import { z } from 'zod';
import { delegatedContract, resourceContract } from '@/lib/contract/wire';
import { CHOOSER_LIMIT, DEFAULT_SCOPE, MAX_RETURN_LENGTH } from './terms';

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

/** RFC 6749 §3.3: a request without scope is processed with a pre-defined default (terms.ts). */
const authorizationDefaults = () => ({ scope: DEFAULT_SCOPE });

/** The provider's protocol endpoints: node-oidc-provider answers them (oidc.routes.ts binds it). */
const protocol = { tag: TAG, auth: { kind: 'public' }, origin: 'none', idempotency: 'none', response: metadata } as const;

const RAW_REQUIRED = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method'] as const;

/**
 * A pending authorization (interaction_id), or the raw parameters of one, which the service then
 * validates as the authorization endpoint would (authorization-request.ts).
 */
export const authorizationContextQuery = z
  .object({
    interaction_id: z.string().min(1).max(64).optional(),
    client_id: z.string().min(1).max(200).optional(),
    redirect_uri: z.string().min(1).max(2000).optional(),
    response_type: z.literal('code', { error: 'Only the authorization code flow (code) is supported' }).optional(),
    scope: z.string().max(2000).optional(),
    state: z.string().max(2000).optional(),
    code_challenge: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'Expected the base64url SHA-256 of the verifier (43 characters)')
      .optional(),
    code_challenge_method: z.literal('S256', { error: 'Only S256 is accepted (RFC 9700: never plain)' }).optional(),
    resource: z.string().max(2000).optional(),
    organization: z.string().max(200).optional(),
  })
  .superRefine((query, ctx) => {
    if (query.interaction_id) return;
    for (const field of RAW_REQUIRED) {
      if (!query[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'Required unless interaction_id is given' });
    }
  });

export const authorize = delegatedContract({
  ...protocol,
  id: 'authorize',
  method: 'GET',
  path: '/oauth/authorize',
  summary: `OAuth 2.0 / OIDC authorization endpoint (code flow with PKCE S256); continues at the hosted sign-in and consent. Without scope the request asks for ${DEFAULT_SCOPE}`,
  // The spec lists the consent POST at this path; the GET every OIDC client sends is the standard endpoint.
  extension: true,
  // Relying parties send browsers here from their own sites (cross-site navigations): no Origin rule.
  origin: 'none',
  successStatus: 303,
  errorStatuses: [302],
  defaultParameters: authorizationDefaults,
});

export const authorizeByFormPost = delegatedContract({
  ...protocol,
  id: 'authorizeByFormPost',
  method: 'POST',
  path: '/oauth/authorize',
  summary:
    'An authorization request sent as a form POST (OIDC Core 3.1.2.1): any form without interaction_id; answered with a 303 to the same request as a GET, so the same rules apply',
  extension: true,
  origin: 'none',
  successStatus: 303,
  errorStatuses: [302],
  // No defaultParameters: the GET it redirects to fills them in.
  variant: { of: 'decideAuthorization', when: (form) => !form.has('interaction_id') },
});

export const resumeAuthorization = delegatedContract({
  ...protocol,
  id: 'resumeAuthorization',
  method: 'GET',
  path: '/oauth/authorize/{uid}',
  summary: 'Where the browser resumes after consent; redirects to the client with the code (and iss, RFC 9207)',
  extension: true,
  origin: 'if-present',
  successStatus: 303,
});

export const getAuthorizationContext = resourceContract({
  id: 'getAuthorizationContext',
  method: 'GET',
  path: '/oauth/authorize/context',
  tag: TAG,
  summary:
    'What a pending authorization (interaction_id) or raw authorization parameters ask for: client, redirect host, scopes in plain words, resource; invalid requests are refused before any consent screen renders',
  auth: { kind: 'public' },
  origin: 'if-present',
  idempotency: 'none',
  query: authorizationContextQuery,
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({
    interaction_id: z.string().nullable(),
    /** self_registered: created through POST /oauth/register; its name is unverified, the client's own claim. */
    client: z.object({ client_id: z.string(), client_name: z.string(), self_registered: z.boolean() }),
    redirect_host: z.string(),
    scopes: z.array(z.object({ scope: z.string(), description: z.string() })),
    /**
     * With identity.api_keys.create: the keys this application could create on the person's account
     * expire after at most `max_lifetime_days`, carry only `scopes`, and are revoked with the consent.
     */
    api_keys: z.object({ max_lifetime_days: z.number().int(), scopes: z.array(z.string()), revoked_with_consent: z.literal(true) }).nullable(),
    resource: z.string().nullable(),
    /** The developer's API the resource names (its permissions are among `scopes`, in its owner's words); null for ours. */
    api: z.object({ identifier: z.string(), name: z.string() }).nullable(),
    prompt: z.string().nullable(),
    /** The answer needs a sign-in at or after this time (prompt=login, max_age); null: any live session. */
    sign_in_after: z.string().nullable(),
  }),
});

export const getAuthorizationOrganizations = resourceContract({
  id: 'getAuthorizationOrganizations',
  method: 'GET',
  path: '/oauth/authorize/organizations',
  tag: TAG,
  summary: `For the consent page: the organization a pending organization-scoped authorization is bound to, or the signed-in person's active organizations to choose from (at most ${CHOOSER_LIMIT}); refusal says why only denying is possible`,
  extension: true,
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  query: z.object({ interaction_id: z.string().min(1).max(64) }),
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({
    /** The request asks for an organization scope: approving binds it to one organization. */
    required: z.boolean(),
    /** The organization the request names (its `organization` parameter), if any. */
    requested: z.string().nullable(),
    organizations: z.array(z.object({ id: z.string(), name: z.string() })),
    /**
     * not_a_member: the person is no active member of the requested organization; no_organizations: of
     * none; application_not_assigned: the organization (or each of theirs) allows only assigned applications.
     */
    refusal: z.enum(['not_a_member', 'no_organizations', 'application_not_assigned']).nullable(),
  }),
});

export const getAuthorizationReturn = resourceContract({
  id: 'getAuthorizationReturn',
  method: 'GET',
  path: '/oauth/error/context',
  tag: TAG,
  summary:
    'For the OAuth error page: the error response an authorization request would have been redirected with, held back because the client’s redirect URIs are not trusted (RFC 9700 §4.11.2); the page names the application and host and lets the person continue',
  extension: true,
  auth: { kind: 'public' },
  origin: 'if-present',
  idempotency: 'none',
  query: z.object({
    return_id: z
      .string()
      .min(1)
      .max(MAX_RETURN_LENGTH)
      .regex(/^[A-Za-z0-9_.-]+$/),
  }),
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({
    client: z.object({ client_id: z.string(), client_name: z.string() }),
    redirect_host: z.string(),
    error: z.string(),
    /** A link (GET, query or fragment response mode) or a form to submit (POST, form_post). */
    continue_to: z.object({ method: z.enum(['GET', 'POST']), url: z.string(), fields: z.record(z.string(), z.string()) }),
  }),
});

export const decideAuthorization = resourceContract({
  id: 'decideAuthorization',
  method: 'POST',
  path: '/oauth/authorize',
  tag: TAG,
  summary: 'The signed-in person approves or denies a pending authorization (from the hosted consent page)',
  auth: { kind: 'session' },
  origin: 'required',
  idempotency: 'none',
  acceptsForm: true,
  body: z.object({
    interaction_id: z.string().min(1).max(64),
    decision: z.enum(['approve', 'deny']),
    /** The organization an organization-scoped authorization is bound to, when the request names none. */
    organization_id: z.uuid().optional(),
  }),
  successStatus: 200,
  errorStatuses: [303, 403, 404],
  response: z.object({ redirect_to: z.string() }),
});

export const token = delegatedContract({
  ...protocol,
  id: 'token',
  method: 'POST',
  path: '/oauth/token',
  summary: 'Token endpoint (form-encoded): authorization_code with code_verifier, or refresh_token (rotating)',
  auth: { kind: 'client_auth' },
  successStatus: 200,
  errorStatuses: [401, 503],
});

export const userinfo = delegatedContract({
  ...protocol,
  id: 'userinfo',
  method: 'GET',
  path: '/oauth/userinfo',
  summary: 'Scoped OIDC claims of the token owner',
  auth: { kind: 'bearer', accepts: ['oauth'], scopes: [] },
  successStatus: 200,
  errorStatuses: [401, 403],
});

export const revoke = delegatedContract({
  ...protocol,
  id: 'revoke',
  method: 'POST',
  path: '/oauth/revoke',
  summary: 'Revoke a token and its refresh-token family: JSON { token, token_type_hint?, client_id } with Idempotency-Key, or the RFC 7009 form (key optional)',
  successStatus: 200,
  acceptsJson: true,
  idempotency: 'required',
  idempotencyCredential: 'token',
  errorStatuses: [409, 422],
});

export const introspect = delegatedContract({
  ...protocol,
  id: 'introspect',
  method: 'POST',
  path: '/oauth/introspect',
  summary:
    "Token introspection (RFC 7662, form-encoded, client authentication as at the token endpoint): a client learns whether one of its own tokens is active (another client's is `active: false`); JWTs for developers' APIs included",
  auth: { kind: 'client_auth' },
  extension: true,
  successStatus: 200,
  errorStatuses: [401, 503],
});

export const getOpenIdConfiguration = delegatedContract({
  ...publicMetadata,
  id: 'getOpenIdConfiguration',
  path: '/.well-known/openid-configuration',
  summary: 'OpenID Connect discovery',
  response: metadata,
});

export const getOAuthAuthorizationServerMetadata = delegatedContract({
  ...publicMetadata,
  id: 'getOAuthAuthorizationServerMetadata',
  path: '/.well-known/oauth-authorization-server',
  summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
  response: metadata,
});

export const getJwks = delegatedContract({
  ...publicMetadata,
  id: 'getJwks',
  path: '/.well-known/jwks.json',
  summary: 'Public OIDC signing keys (active and, during roll-over, retiring)',
  response: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
});

export const registerClient = delegatedContract({
  id: 'registerClient',
  method: 'POST',
  path: '/oauth/register',
  tag: TAG,
  summary:
    'Register a public native client (RFC 7591): PKCE, HTTPS or loopback redirect URIs. No RFC 7592 management: no registration access token or registration_client_uri is issued',
  auth: { kind: 'public' },
  origin: 'none',
  rateLimit: 'oauth_register',
  idempotency: 'none',
  successStatus: 201,
  errorStatuses: [400, 503],
  response: metadata,
});

export const getProtectedResourceMetadata = protectedResource({
  id: 'getProtectedResourceMetadata',
  path: '/.well-known/oauth-protected-resource/mcp',
  summary: 'Protected-resource metadata for {base_url}/mcp (RFC 9728)',
});

export const getApiProtectedResourceMetadata = protectedResource({
  id: 'getApiProtectedResourceMetadata',
  path: '/.well-known/oauth-protected-resource',
  summary: "Protected-resource metadata for this service's API (RFC 9728), named in every Bearer challenge",
  extension: true,
});

/** RFC 9728 metadata of one of our resources (the answer is built by the service from its configuration). */
function protectedResource<Id extends string>(input: { id: Id; path: string; summary: string; extension?: boolean }) {
  return resourceContract({
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
  });
}
