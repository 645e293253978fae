/**
 * An identity provider's SAML metadata, read and validated before a connection may activate: one
 * EntityDescriptor with an entityID, an IdP SSO service over HTTPS (HTTP-Redirect binding, which our
 * requests use), and at least one signing certificate that is valid now. What activation stores is
 * exactly what this returns; sign-in never reads the metadata again. No DOCTYPE is accepted (no
 * entity tricks), and the document is bounded by the outbound fetch or the request body.
 */
import { X509Certificate } from 'node:crypto';
import { parseXml } from './xml';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
export const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** Base64 DER of each signing certificate valid now. */
  certificates: string[];
}

export type MetadataClassification =
  'invalid_metadata' | 'no_entity_id' | 'no_sso_service' | 'insecure_sso_url' | 'no_signing_certificate' | 'certificate_expired' | 'certificate_not_yet_valid';

export type MetadataCheck = { ok: true; metadata: IdpMetadata } | { ok: false; classification: MetadataClassification };

const fail = (classification: MetadataClassification): MetadataCheck => ({ ok: false, classification });

const elements = (parent: Document | Element, ns: string, name: string) => Array.from(parent.getElementsByTagNameNS(ns, name));

function isHttps(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Signing certificates: KeyDescriptors of the IdP role marked `signing` or unmarked (both uses). */
function signingCertificates(idp: Element): string[] {
  return elements(idp, MD, 'KeyDescriptor')
    .filter((descriptor) => !descriptor.getAttribute('use') || descriptor.getAttribute('use') === 'signing')
    .flatMap((descriptor) => elements(descriptor, DS, 'X509Certificate'))
    .map((node) => (node.textContent ?? '').replace(/\s+/g, ''))
    .filter(Boolean);
}

function certificateState(base64: string, now: Date): 'valid' | 'expired' | 'not_yet_valid' | 'invalid' {
  try {
    const certificate = new X509Certificate(Buffer.from(base64, 'base64'));
    if (new Date(certificate.validTo) <= now) return 'expired';
    if (new Date(certificate.validFrom) > now) return 'not_yet_valid';
    return 'valid';
  } catch {
    return 'invalid';
  }
}

export function readIdpMetadata(xml: string, now: Date): MetadataCheck {
  const doc = parseXml(xml);
  const root = doc?.documentElement;
  if (!root || root.namespaceURI !== MD || root.localName !== 'EntityDescriptor') return fail('invalid_metadata');
  const entityId = root.getAttribute('entityID') ?? '';
  if (!entityId) return fail('no_entity_id');
  const [idp] = elements(root, MD, 'IDPSSODescriptor');
  if (!idp) return fail('no_sso_service');
  const sso = elements(idp, MD, 'SingleSignOnService').find((service) => service.getAttribute('Binding') === REDIRECT_BINDING);
  const ssoUrl = sso?.getAttribute('Location') ?? '';
  if (!ssoUrl) return fail('no_sso_service');
  if (!isHttps(ssoUrl)) return fail('insecure_sso_url');
  const candidates = signingCertificates(idp);
  if (candidates.length === 0) return fail('no_signing_certificate');
  const states = candidates.map((certificate) => certificateState(certificate, now));
  const certificates = candidates.filter((_, i) => states[i] === 'valid');
  if (certificates.length > 0) return { ok: true, metadata: { entityId, ssoUrl, certificates } };
  if (states.includes('expired')) return fail('certificate_expired');
  if (states.includes('not_yet_valid')) return fail('certificate_not_yet_valid');
  return fail('no_signing_certificate');
}
