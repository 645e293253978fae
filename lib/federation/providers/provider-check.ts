/**
 * Whether a connection's identity provider may be used: the OIDC checks (oidc-check.ts) or the SAML
 * metadata checks (saml/idp-metadata.ts), as one answer for activation and the health preflight.
 * For SAML, the validated metadata comes with it: activation stores exactly that.
 */
import type { ConnectionRow } from '../connections/connections.repo';
import { readIdpMetadata, type IdpMetadata } from '../saml/idp-metadata';
import { checkOidcProvider } from './oidc-check';
import { fetchProviderDocument } from './provider-fetch';

export type ProviderCheck = { ok: true; saml: IdpMetadata | null } | { ok: false; classification: string };

async function samlMetadataXml(connection: ConnectionRow): Promise<{ xml: string } | { classification: string }> {
  if (connection.samlMetadataXml) return { xml: connection.samlMetadataXml };
  const fetched = await fetchProviderDocument(connection.samlMetadataUrl!, 'application/samlmetadata+xml, application/xml, text/xml');
  return fetched.ok ? { xml: fetched.body.toString('utf8') } : { classification: `metadata_${fetched.failure}` };
}

export async function checkProvider(connection: ConnectionRow, now: Date): Promise<ProviderCheck> {
  if (connection.protocol === 'oidc') {
    const check = await checkOidcProvider(connection.issuer!);
    return check.ok ? { ok: true, saml: null } : check;
  }
  const source = await samlMetadataXml(connection);
  if ('classification' in source) return { ok: false, classification: source.classification };
  const check = readIdpMetadata(source.xml, now);
  return check.ok ? { ok: true, saml: check.metadata } : check;
}
