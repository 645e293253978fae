/**
 * Which names an organization may claim as its domain. A claim proves control of a DNS name, and a
 * verified name later decides whose connection signs in everyone with an address under it, so the
 * rules are strict: a plain registrable host name (IDNA ASCII form, lower case), never an address,
 * and never a public mail provider's domain (proving gmail.com is impossible for an organization, and
 * attaching it to a tenant would pull strangers into it).
 */
import { domainToASCII } from 'node:url';
import { freeEmailDomains } from 'free-email-domains-typescript';

export const MAX_DOMAIN_LENGTH = 253;

/**
 * Mail providers missing from the maintained list (free-email-domains-typescript 1.0.13) that people
 * commonly use: a documented supplement (docs/decisions.md, "Verified domains").
 */
const SUPPLEMENT = ['proton.me', 'pm.me', 'tutanota.com', 'tuta.io', 'hey.com', 'skiff.com', 'duck.com', 'simplelogin.com', 'passmail.net'];

const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([...freeEmailDomains.map((d) => d.toLowerCase()), ...SUPPLEMENT]);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export type DomainRefusal = 'invalid' | 'public_mail_provider';

/** A host name in the form stored and compared (IDNA ASCII, lower case, no final dot), or null. */
export function normalizedDomain(raw: string): string | null {
  const trimmed = raw.trim().replace(/\.$/, '');
  if (trimmed === '' || trimmed.length > MAX_DOMAIN_LENGTH * 4) return null;
  // domainToASCII lower-cases, maps and punycodes; it answers '' for what IDNA refuses.
  const ascii = domainToASCII(trimmed);
  if (ascii === '' || ascii.length > MAX_DOMAIN_LENGTH) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // The top-level label of a host name is never all digits (that would be an IPv4 address).
  return /^\d+$/.test(labels.at(-1)!) ? null : ascii;
}

/** The name an organization may claim, or why it cannot. */
export function claimableDomain(raw: string): { domain: string } | { refusal: DomainRefusal } {
  const domain = normalizedDomain(raw);
  if (domain === null) return { refusal: 'invalid' };
  return isPublicMailDomain(domain) ? { refusal: 'public_mail_provider' } : { domain };
}

/** Whether the domain, or a domain it is under, is a public mail provider's. */
export function isPublicMailDomain(domain: string): boolean {
  const labels = domain.split('.');
  return labels.some((_, i) => PUBLIC_MAIL_DOMAINS.has(labels.slice(i).join('.')));
}

/** The domain part of an e-mail address, in the stored form (null when it is not a host name). */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at < 1 ? null : normalizedDomain(email.slice(at + 1));
}
