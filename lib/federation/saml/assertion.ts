/**
 * What we read from a SAML assertion, and only from the one node-saml verified (its signed content,
 * never the document around it). Text is read as the DOM's textContent: a comment inside NameID
 * (`victim@corp.test<!---->.evil.test`) cannot cut the value short, it reads as the whole string.
 */
import { parseXml } from './xml';

const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Where IdPs put the e-mail address (Entra, ADFS, Okta, Google, Shibboleth). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailaddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const NAME_ATTRIBUTES = ['displayname', 'name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name', 'urn:oid:2.16.840.1.113730.3.1.241'];

export interface AssertionFacts {
  id: string;
  /** The assertion's own Issuer (node-saml compares only a logout message's). */
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  recipients: string[];
  /** The latest moment the assertion may be used (Conditions, else the subject confirmation). */
  notOnOrAfter: Date | null;
}

const all = (parent: Document | Element, name: string, ns = SAML) => Array.from(parent.getElementsByTagNameNS(ns, name));
const text = (node: Element | undefined) => (node?.textContent ?? '').trim();

function attribute(assertion: Element, names: string[]): string | null {
  const found = all(assertion, 'Attribute').find((a) => names.includes((a.getAttribute('Name') ?? '').toLowerCase()));
  const value = found ? text(all(found, 'AttributeValue')[0]) : '';
  return value || null;
}

function instant(value: string | null): Date | null {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** The facts of a verified assertion; null when it is not a single well-formed assertion. */
export function assertionFacts(xml: string): AssertionFacts | null {
  const assertion = parseXml(xml)?.documentElement;
  if (!assertion || assertion.namespaceURI !== SAML || assertion.localName !== 'Assertion') return null;
  const nameId = all(assertion, 'NameID')[0];
  const subject = text(nameId);
  const id = assertion.getAttribute('ID') ?? '';
  if (!subject || !id) return null;
  const confirmations = all(assertion, 'SubjectConfirmationData');
  const emailFromNameId = nameId?.getAttribute('Format') === EMAIL_FORMAT ? subject : null;
  return {
    id,
    issuer: text(Array.from(assertion.childNodes).find((n): n is Element => n.nodeType === 1 && (n as Element).localName === 'Issuer')),
    subject,
    email: attribute(assertion, EMAIL_ATTRIBUTES) ?? emailFromNameId,
    name: attribute(assertion, NAME_ATTRIBUTES),
    recipients: confirmations.map((c) => c.getAttribute('Recipient') ?? ''),
    notOnOrAfter: instant(all(assertion, 'Conditions')[0]?.getAttribute('NotOnOrAfter') ?? confirmations[0]?.getAttribute('NotOnOrAfter') ?? null),
  };
}

/** The response envelope's InResponseTo and Destination: read before verification, used only to find the transaction and compare. */
export function responseEnvelope(xml: string): { inResponseTo: string | null; destination: string | null } | null {
  const root = parseXml(xml)?.documentElement;
  if (!root || root.namespaceURI !== PROTOCOL || root.localName !== 'Response') return null;
  return { inResponseTo: root.getAttribute('InResponseTo') || null, destination: root.getAttribute('Destination') || null };
}
