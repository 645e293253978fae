/**
 * A SAML identity provider made of its key: metadata, and responses built and signed here with
 * xml-crypto (RSA-SHA256, exclusive c14n, an enveloped signature after the assertion's Issuer), as a
 * real IdP signs them. Options reshape a response the ways attackers and broken IdPs do; `wrap*`
 * functions rework a signed response into the classic signature-wrapping variants.
 */
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { createSigningCertificate } from './test-ca';

const ASSERTION = "//*[local-name(.)='Assertion']";

export interface SamlIdp {
  entityId: string;
  ssoUrl: string;
  metadataXml: string;
  /** The AuthnRequest a start produced (from its redirect URL). */
  request(redirectUrl: string): { id: string; acs: string; issuer: string };
  /** A base64 SAMLResponse answering `requestId`, signed (the assertion) by this IdP unless told otherwise. */
  respond(options: ResponseOptions): string;
}

export interface ResponseOptions {
  inResponseTo: string | null;
  acs: string;
  audience: string;
  nameId: string;
  /** The `email` attribute; omitted when null (the NameID, of e-mail format, then stands for it). */
  email?: string | null;
  recipient?: string;
  destination?: string | null;
  /** InResponseTo in the SubjectConfirmationData too (IdPs usually do). */
  confirmationInResponseTo?: boolean;
  notOnOrAfter?: Date;
  assertionId?: string;
  /** Sign with another key than the one in the metadata. */
  signWith?: { keyPem: string; certPem: string };
  issuer?: string;
}

const id = () => `_${randomBytes(16).toString('hex')}`;
const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

export function sign(xml: string, key: { keyPem: string; certPem: string }): string {
  const signer = new SignedXml({
    privateKey: key.keyPem,
    publicCert: key.certPem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: ASSERTION,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, { location: { reference: `${ASSERTION}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

function assertionXml(o: ResponseOptions, issuer: string, now: Date): string {
  const notOnOrAfter = iso(o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000));
  const confirmation = o.confirmationInResponseTo === false || !o.inResponseTo ? '' : ` InResponseTo="${o.inResponseTo}"`;
  const email =
    o.email === null
      ? ''
      : `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${o.email ?? o.nameId}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`;
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.assertionId ?? id()}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${o.issuer ?? issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${confirmation} NotOnOrAfter="${notOnOrAfter}" Recipient="${o.recipient ?? o.acs}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(new Date(now.getTime() - 60_000))}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${id()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    email +
    `</saml:Assertion>`
  );
}

/** A Response envelope (unsigned, as many IdPs send it) around `inner`. */
export function envelope(o: { inResponseTo: string | null; destination: string | null; issuer: string }, inner: string): string {
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
  const destination = o.destination ? ` Destination="${o.destination}"` : '';
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${iso(new Date())}"${destination}${inResponseTo}>` +
    `<saml:Issuer>${o.issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    inner +
    `</samlp:Response>`
  );
}

/** The signed assertion of a base64 response, as its XML text. */
export function signedAssertionOf(response: string): string {
  const xml = Buffer.from(response, 'base64').toString('utf8');
  return /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
}

export async function createSamlIdp(options: { notAfter?: Date; entityId?: string } = {}): Promise<SamlIdp & { key: { keyPem: string; certPem: string } }> {
  const certificate = await createSigningCertificate(
    options.notAfter ? { notAfter: options.notAfter, notBefore: new Date(options.notAfter.getTime() - 86_400_000) } : {},
  );
  const key = { keyPem: certificate.keyPem, certPem: certificate.certPem };
  const entityId = options.entityId ?? `https://idp-${randomBytes(4).toString('hex')}.example.test/saml`;
  const ssoUrl = `${entityId}/sso`;
  const metadataXml =
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate.certBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`;

  return {
    entityId,
    ssoUrl,
    metadataXml,
    key,
    request(redirectUrl) {
      const encoded = new URL(redirectUrl).searchParams.get('SAMLRequest')!;
      const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
      return {
        id: /ID="([^"]+)"/.exec(xml)![1]!,
        acs: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)![1]!,
        issuer: /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(xml)![1]!,
      };
    },
    respond(o) {
      const now = new Date();
      const signed = sign(assertionXml(o, entityId, now), o.signWith ?? key);
      return b64(envelope({ inResponseTo: o.inResponseTo, destination: o.destination === undefined ? o.acs : o.destination, issuer: entityId }, signed));
    },
  };
}
