import { z } from 'zod';
import { collectionContract, resourceContract } from '@/lib/contract/wire';
import { displayName, inOrganization, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '@/lib/contract/organization-terms';

/** Spec: `connection_id` pattern (federation routes). */
export const connectionIdPattern = /^[A-Za-z0-9][A-Za-z0-9_.:-]{1,127}$/;
export const connectionId = z.string().regex(connectionIdPattern, 'Letters, digits and _ . : - (2 to 128 characters, starting with a letter or digit).');

const httpsUrl = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value) && new URL(value).protocol === 'https:', 'An https URL.');
const scopeToken = z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/, 'A scope token.');

export const connection = z.object({
  id: z.string(),
  connection_id: z.string(),
  protocol: z.enum(['oidc', 'saml']),
  display_name: z.string(),
  status: z.enum(['registered', 'active', 'disabled']),
  domains: z.array(z.object({ id: z.string(), domain: z.string() })),
  issuer: z.string().nullable(),
  client_id: z.string().nullable(),
  scopes: z.array(z.string()).nullable(),
  /** OIDC: the redirect URI to register at the provider. */
  redirect_uri: z.string().optional(),
  /** SAML: what to configure at the IdP (our entity id is our metadata URL). */
  sp: z.object({ entity_id: z.string(), acs_url: z.string(), metadata_url: z.string() }).optional(),
  /** SAML: where the IdP metadata comes from (the XML itself is not returned). */
  metadata_url: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

const connectionParams = organizationParams.extend({ connection_id: connectionId });
const common = { connection_id: connectionId, display_name: displayName, domains: z.array(z.string().min(1).max(253)).min(1).max(20) };
const mutation = { tag: TAG, auth: ORGANIZATION_STEP_UP, tenant: inOrganization('federation.manage'), origin: 'required' } as const;

export const listFederationConnections = collectionContract({
  tag: TAG,
  auth: SESSION,
  tenant: inOrganization('read'),
  origin: 'if-present',
  idempotency: 'none',
  id: 'listFederationConnections',
  method: 'GET',
  path: '/api/organizations/{id}/federation/connections',
  summary: "The organization's federation connections (never a client secret)",
  params: organizationParams,
  collection: 'connections',
  item: connection,
  errorStatuses: [404],
});

export const registerFederationConnection = resourceContract({
  ...mutation,
  idempotency: 'optional',
  id: 'registerFederationConnection',
  method: 'POST',
  path: '/api/organizations/{id}/federation/connections',
  summary:
    "Register an identity provider (OIDC, or SAML by its metadata) for the organization's verified domains (status registered; an OIDC client secret is sealed, never returned)",
  params: organizationParams,
  maxBodyBytes: 300 * 1024,
  body: z.discriminatedUnion('protocol', [
    z.strictObject({
      ...common,
      protocol: z.literal('oidc'),
      issuer: httpsUrl,
      client_id: z.string().min(1).max(255),
      client_secret: z.string().min(1).max(1024),
      scopes: z.array(scopeToken).max(20).optional(),
    }),
    z
      .strictObject({
        ...common,
        protocol: z.literal('saml'),
        metadata_xml: z
          .string()
          .min(1)
          .max(256 * 1024)
          .optional(),
        metadata_url: httpsUrl.optional(),
      })
      .refine((body) => (body.metadata_xml === undefined) !== (body.metadata_url === undefined), {
        message: 'Give the IdP metadata either as metadata_xml or as metadata_url.',
        path: ['metadata_xml'],
      }),
  ]),
  successStatus: 201,
  errorStatuses: [404, 409],
  response: connection,
});

export const changeFederationConnection = resourceContract({
  ...mutation,
  idempotency: 'required',
  id: 'changeFederationConnection',
  method: 'PATCH',
  path: '/api/organizations/{id}/federation/connections/{connection_id}',
  summary: 'Activate (only after the provider passes bounded validation; 422 names the failed check) or disable a connection',
  params: connectionParams,
  body: z.strictObject({ status: z.enum(['active', 'disabled']) }),
  successStatus: 200,
  errorStatuses: [404, 409, 422],
  emits: ['identity.organization.federation.connection.activated', 'identity.organization.federation.connection.disabled'],
  response: connection,
});

export const deleteFederationConnection = resourceContract({
  ...mutation,
  idempotency: 'required',
  id: 'deleteFederationConnection',
  method: 'DELETE',
  path: '/api/organizations/{id}/federation/connections/{connection_id}',
  summary: 'Delete a disabled connection (409 otherwise)',
  params: connectionParams,
  successStatus: 200,
  errorStatuses: [404, 409],
  response: z.object({ deleted: z.literal(true) }),
});

export const checkFederationConnectionHealth = resourceContract({
  tag: TAG,
  auth: SESSION,
  // Health makes outbound requests: for those who manage connections, not every member.
  tenant: inOrganization('federation.manage'),
  origin: 'if-present',
  idempotency: 'none',
  id: 'checkFederationConnectionHealth',
  method: 'GET',
  path: '/api/organizations/{id}/federation/connections/{connection_id}/health',
  summary: "Re-fetch and re-validate the provider's metadata; changes nothing and answers only a classification",
  params: connectionParams,
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({ connection_id: z.string(), healthy: z.boolean(), classification: z.string(), checked_at: z.string() }),
});
