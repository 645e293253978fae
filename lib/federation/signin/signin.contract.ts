import { z } from 'zod';
import { emailField } from '@/lib/contract/email-address';
import { delegatedContract, resourceContract } from '@/lib/contract/wire';
import { connectionId } from '../connections/connections.contract';

const TAG = 'Federation';
/** Browser surfaces: no credential; a present foreign Origin or a cross-site fetch is refused. */
const PUBLIC = { tag: TAG, auth: { kind: 'public' }, idempotency: 'none' } as const;

export const discoverFederation = resourceContract({
  ...PUBLIC,
  // Browsers send no Origin on same-origin GETs: the rule refuses a foreign one and cross-site fetches.
  origin: 'if-present',
  rateLimit: 'federation_discovery',
  id: 'discoverFederation',
  method: 'GET',
  path: '/api/auth/federation/discovery',
  summary:
    "Whether an active connection serves the e-mail's verified domain, and which to start with; the same shape when none does (never an organization id or provider detail)",
  query: z.strictObject({ email: emailField }),
  successStatus: 200,
  errorStatuses: [503],
  response: z.object({
    connection_id: z.string().nullable(),
    protocol: z.enum(['oidc', 'saml']).optional(),
    display_name: z.string().optional(),
  }),
});

export const startOidcFederation = resourceContract({
  ...PUBLIC,
  origin: 'if-present',
  rateLimit: 'federation_start',
  id: 'startOidcFederation',
  method: 'GET',
  path: '/api/auth/federation/oidc/start',
  summary: "Start a federated sign-in: a single-use transaction (state, nonce, PKCE S256; 10 minutes) and a 302 to the organization's provider",
  query: z.strictObject({ connection_id: connectionId }),
  successStatus: 302,
  errorStatuses: [503],
  response: z.object({ redirect_to: z.string() }),
});

export const completeOidcFederation = resourceContract({
  ...PUBLIC,
  // The provider sends the browser back: a cross-site navigation by nature.
  origin: 'none',
  startsSession: 'federation',
  id: 'completeOidcFederation',
  method: 'GET',
  path: '/api/auth/federation/oidc/callback',
  summary:
    'The provider returns here: the transaction is consumed once, the code exchanged with PKCE, the ID token validated; always a 302 to /sign-in?federation=<classification> (signed_in on success), never an error body',
  // Anything the provider sends is accepted here (a value out of bounds reads as absent) and judged by
  // the handler, which always redirects.
  query: z.object({
    state: z.string().max(512).optional().catch(undefined),
    code: z.string().max(4096).optional().catch(undefined),
    error: z.string().max(256).optional().catch(undefined),
    error_description: z.string().max(2048).optional().catch(undefined),
    iss: z.string().max(2048).optional().catch(undefined),
    session_state: z.string().max(512).optional().catch(undefined).catch(undefined),
  }),
  successStatus: 302,
  emits: ['identity.user.created', 'identity.organization.member.added', 'identity.session.revoked'],
  response: z.object({ redirect_to: z.string() }),
});

/*
 * SAML (extensions of the spec, which names no SAML paths): SP-initiated sign-in behind SAML_ENABLED,
 * the assertion consumer service, and each connection's SP metadata.
 */

export const startSamlFederation = resourceContract({
  ...PUBLIC,
  extension: true,
  origin: 'if-present',
  rateLimit: 'federation_start',
  id: 'startSamlFederation',
  method: 'GET',
  path: '/api/auth/federation/saml/start',
  summary: "Start a SAML sign-in (SAML_ENABLED): a single-use AuthnRequest (10 minutes) and a 302 to the organization's IdP (HTTP-Redirect binding)",
  query: z.strictObject({ connection_id: connectionId }),
  successStatus: 302,
  errorStatuses: [503],
  response: z.object({ redirect_to: z.string() }),
});

export const completeSamlFederation = resourceContract({
  ...PUBLIC,
  extension: true,
  // The IdP's page posts the response: a cross-site form POST by nature.
  origin: 'none',
  startsSession: 'federation',
  acceptsForm: true,
  maxBodyBytes: 320 * 1024,
  id: 'completeSamlFederation',
  method: 'POST',
  path: '/api/auth/federation/saml/acs',
  summary:
    'Assertion consumer service (HTTP-POST binding): the response must answer a stored request of this browser, with a signed assertion for this SP; always a 303 to /sign-in?federation=<classification>, never an error body',
  body: z.object({
    SAMLResponse: z
      .string()
      .max(300 * 1024)
      .optional()
      .catch(undefined),
    RelayState: z.string().max(1024).optional().catch(undefined),
  }),
  successStatus: 303,
  emits: ['identity.user.created', 'identity.organization.member.added', 'identity.session.revoked'],
  response: z.object({ redirect_to: z.string() }),
});

export const getSamlServiceProviderMetadata = delegatedContract({
  ...PUBLIC,
  extension: true,
  origin: 'none',
  id: 'getSamlServiceProviderMetadata',
  method: 'GET',
  path: '/api/auth/federation/saml/{connection_id}/metadata',
  summary: "A SAML connection's service provider metadata (XML): our entity id (this URL) and ACS, to give the IdP",
  successStatus: 200,
  errorStatuses: [404],
  response: z.string(),
});
