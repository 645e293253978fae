/**
 * Our side of a SAML connection (SP-initiated Web SSO, node-saml 5.1, the first release with the
 * fixes for CVE-2025-54369 and CVE-2025-54419). The SP's entity id is its metadata URL, one per
 * connection; one ACS serves every connection (the response's InResponseTo names the transaction, the
 * transaction names the connection). node-saml checks the signatures (assertions must be signed; only
 * verified content is read), audience, InResponseTo (always: an IdP-initiated response is
 * refused), validity windows with CLOCK_SKEW_MS, and at most one assertion. The assertion's Issuer,
 * Destination, Recipient and replays are checked by us (saml-signin.ts): node-saml 5.1 does not.
 */
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { getConfig } from '@/lib/config';
import type { ConnectionRow } from '../connections/connections.repo';

/** Clock skew tolerated on NotBefore / NotOnOrAfter (docs/decisions.md, "SAML"). */
export const CLOCK_SKEW_MS = 60_000;

export const spEntityId = (connectionId: string) => `${getConfig().baseUrl}/api/auth/federation/saml/${encodeURIComponent(connectionId)}/metadata`;
export const acsUrl = () => `${getConfig().baseUrl}/api/auth/federation/saml/acs`;

/** What the connection record shows the admin to configure at the IdP. */
export function spValues(connectionId: string) {
  const entityId = spEntityId(connectionId);
  return { entity_id: entityId, acs_url: acsUrl(), metadata_url: entityId };
}

const pem = (base64: string) => `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;

/** Requests are remembered by our transactions table, not by node-saml: its cache only answers for the one being completed. */
function oneRequest(requestId: string | null, issuedAt: Date | null): CacheProvider {
  return {
    saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }),
    getAsync: async (key) => (key === requestId && issuedAt ? issuedAt.toISOString() : null),
    removeAsync: async (key) => key,
  };
}

/**
 * node-saml for one connection; `request`: the request being started (its id) or completed (its id
 * and when it was issued).
 */
export function samlFor(connection: ConnectionRow, request: { id: string; issuedAt: Date | null }): SAML {
  return new SAML({
    issuer: spEntityId(connection.connectionId),
    callbackUrl: acsUrl(),
    entryPoint: connection.samlSsoUrl!,
    idpCert: (connection.samlSigningCertificates ?? []).map(pem),
    idpIssuer: connection.samlIdpEntityId!,
    audience: spEntityId(connection.connectionId),
    wantAssertionsSigned: true,
    // Many IdPs sign only the assertion; a signed response is checked when present.
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: getConfig().ttl.federationTransaction * 1000,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    cacheProvider: oneRequest(request.id, request.issuedAt),
    generateUniqueId: () => request.id,
    disableRequestedAuthnContext: true,
    identifierFormat: null,
  });
}

/** The SP metadata the admin gives the IdP (unsigned: it holds nothing secret). */
export function spMetadata(connection: ConnectionRow): string {
  return samlFor(connection, { id: '_metadata', issuedAt: null }).generateServiceProviderMetadata(null, null);
}
