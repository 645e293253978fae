/**
 * SCIM attributes as clients send them, made into the values this service keeps. Attribute names are
 * case-insensitive (RFC 7643 §2.1: Microsoft's validator sends `Primary`), booleans may come as the
 * strings "True"/"False" (Entra ID), and attributes this service does not keep (addresses, phone
 * numbers, the enterprise extension ...) are ignored, as RFC 7644 §3.3 allows: a directory's mapping
 * of more attributes than we store never fails its provisioning.
 */
import { emailField } from '@/lib/contract/email-address';
import { isOneLine } from '@/lib/contract/text';
import type { DirectoryEmail } from '@/lib/db/schema/scim';
import { scimInvalid } from './scim-errors';

export type { DirectoryEmail };

/** Longest text attribute kept (userName, names, externalId). */
export const MAX_TEXT = 256;
/** Most e-mail addresses kept per user. */
export const MAX_EMAILS = 20;

export interface UserAttributes {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  formattedName: string | null;
  displayName: string | null;
  emails: DirectoryEmail[];
  active: boolean;
}

export interface GroupAttributes {
  displayName: string;
  externalId: string | null;
  /** SCIM ids of the member users, as sent (resolved against the directory's users later). */
  members: string[] | null;
}

type Json = Record<string, unknown>;

/** The canonical names of the attributes kept, by lower-case name; sub-attributes likewise. */
const USER_NAMES = canonicalNames(['schemas', 'id', 'externalId', 'userName', 'name', 'displayName', 'emails', 'active', 'meta']);
const NAME_NAMES = canonicalNames(['givenName', 'familyName', 'formatted']);
const EMAIL_NAMES = canonicalNames(['value', 'type', 'primary', 'display']);
const GROUP_NAMES = canonicalNames(['schemas', 'id', 'externalId', 'displayName', 'members', 'meta']);
const MEMBER_NAMES = canonicalNames(['value', 'display', '$ref', 'type']);

function canonicalNames(names: string[]): Map<string, string> {
  return new Map(names.map((name) => [name.toLowerCase(), name]));
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object's kept attributes under their canonical names; the rest is dropped. */
function canonical(value: Json, names: Map<string, string>): Json {
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const name = names.get(key.toLowerCase());
    if (name) out[name] = item;
  }
  return out;
}

export function canonicalUser(value: Json): Json {
  const user = canonical(value, USER_NAMES);
  if (isObject(user.name)) user.name = canonical(user.name, NAME_NAMES);
  if (Array.isArray(user.emails)) user.emails = user.emails.map((email) => (isObject(email) ? canonical(email, EMAIL_NAMES) : email));
  return user;
}

export function canonicalGroup(value: Json): Json {
  const group = canonical(value, GROUP_NAMES);
  if (Array.isArray(group.members)) group.members = group.members.map((member) => (isObject(member) ? canonical(member, MEMBER_NAMES) : member));
  return group;
}

/** A boolean, including Entra ID's "True"/"False" strings. */
export function scimBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw scimInvalid('invalidValue', `${attribute} must be a boolean.`);
}

/** One line of text, trimmed, at most MAX_TEXT characters; null or absent stays null. */
export function scimText(value: unknown, attribute: string, required = false): string | null {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '' && !required)) {
    if (required) throw scimInvalid('invalidValue', `${attribute} is required.`);
    return null;
  }
  if (typeof value !== 'string') throw scimInvalid('invalidValue', `${attribute} must be a string.`);
  const text = value.trim();
  if (text === '') throw scimInvalid('invalidValue', `${attribute} must not be empty.`);
  if (text.length > MAX_TEXT) throw scimInvalid('invalidValue', `${attribute} is at most ${MAX_TEXT} characters.`);
  if (!isOneLine(text)) throw scimInvalid('invalidValue', `${attribute} must be one line without control characters.`);
  return text;
}

function parseEmails(value: unknown): DirectoryEmail[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw scimInvalid('invalidValue', 'emails must be an array.');
  if (value.length > MAX_EMAILS) throw scimInvalid('invalidValue', `At most ${MAX_EMAILS} e-mail addresses per user.`);
  const emails = value.map((item, index): DirectoryEmail => {
    if (!isObject(item)) throw scimInvalid('invalidValue', `emails[${index}] must be an object.`);
    return {
      value: scimText(item.value, `emails[${index}].value`, true)!,
      type: scimText(item.type, `emails[${index}].type`),
      primary: item.primary === undefined || item.primary === null ? false : scimBoolean(item.primary, `emails[${index}].primary`),
    };
  });
  if (emails.filter((email) => email.primary).length > 1) throw scimInvalid('invalidValue', 'At most one e-mail address is primary.');
  return emails;
}

/** A User resource's attributes (POST and PUT bodies, and the result of a PATCH). */
export function parseUser(raw: Json): UserAttributes {
  const user = canonicalUser(raw);
  const name = user.name === undefined || user.name === null ? {} : user.name;
  if (!isObject(name)) throw scimInvalid('invalidValue', 'name must be an object.');
  return {
    userName: scimText(user.userName, 'userName', true)!,
    externalId: scimText(user.externalId, 'externalId'),
    givenName: scimText(name.givenName, 'name.givenName'),
    familyName: scimText(name.familyName, 'name.familyName'),
    formattedName: scimText(name.formatted, 'name.formatted'),
    displayName: scimText(user.displayName, 'displayName'),
    emails: parseEmails(user.emails),
    active: user.active === undefined || user.active === null ? true : scimBoolean(user.active, 'active'),
  };
}

/** Most members one request may name (a directory sends larger groups in several PATCH requests). */
export const MAX_MEMBERS_PER_REQUEST = 1000;

export function parseMemberValues(value: unknown, attribute = 'members'): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  if (items.length > MAX_MEMBERS_PER_REQUEST) throw scimInvalid('tooMany', `At most ${MAX_MEMBERS_PER_REQUEST} members per request.`);
  return items.map((item, index) => {
    const member = isObject(item) ? canonical(item, MEMBER_NAMES) : null;
    if (!member) throw scimInvalid('invalidValue', `${attribute}[${index}] must be an object with a value.`);
    return scimText(member.value, `${attribute}[${index}].value`, true)!;
  });
}

export function parseGroup(raw: Json): GroupAttributes {
  const group = canonicalGroup(raw);
  return {
    displayName: scimText(group.displayName, 'displayName', true)!,
    externalId: scimText(group.externalId, 'externalId'),
    members: group.members === undefined ? null : parseMemberValues(group.members),
  };
}

/**
 * The address the person's account is keyed by: the first valid one of the primary e-mail, the work
 * one, the others in order, and a userName that is an address. A directory user without one cannot have an account.
 */
export function accountEmailOf(user: UserAttributes): string {
  const candidates = [user.emails.find((e) => e.primary), user.emails.find((e) => e.type?.toLowerCase() === 'work'), ...user.emails]
    .filter((email): email is DirectoryEmail => email !== undefined)
    .map((email) => email.value);
  for (const candidate of [...candidates, user.userName]) {
    const parsed = emailField.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  throw scimInvalid('invalidValue', 'A provisioned user needs an e-mail address (in emails, or as the userName): it is how the person signs in.');
}
