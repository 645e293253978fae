/**
 * The one text rule for every human-readable name and label people give things here (a person's
 * display name, organization, role and group names and role descriptions, application, API key and
 * passkey names, webhook descriptions, the client_name of a dynamically registered client): one line
 * of text that means what it shows. Refused: line breaks, tabs and other controls (C0, C1), the
 * Unicode line and paragraph separators, and the bidirectional marks and overrides (U+202E makes
 * "gnp.exe" read as "exe.png"). Such names travel in mails (invitations), member lists, consent
 * pages, audit records and the OIDC `name` claim, where a line break writes new paragraphs and an
 * override disguises what the name says. Joiners (ZWJ, ZWNJ) stay: scripts and emoji need them.
 */
import { z } from 'zod';

const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export const ONE_LINE_MESSAGE = 'A name is one line without control or text-direction characters.';

export function isOneLine(text: string): boolean {
  return !NOT_ONE_LINE.test(text);
}

interface OneLineOptions {
  /** An empty value is allowed (a description that may be cleared); names are at least 1 character. */
  allowEmpty?: boolean;
  emptyMessage?: string;
  tooLongMessage?: string;
}

/** Human-readable text under the rule above: trimmed, then at most `max` characters (and 1 unless empty is allowed). */
export function oneLineText(max: number, options: OneLineOptions = {}) {
  const trimmed = z.string().trim();
  const bounded = (options.allowEmpty ? trimmed : trimmed.min(1, options.emptyMessage)).max(max, options.tooLongMessage);
  return bounded.refine(isOneLine, ONE_LINE_MESSAGE);
}

/** Names of people, organizations, groups, roles, applications and API keys: 1-100 characters. */
export const displayName = oneLineText(100);
