/**
 * SCIM filters (RFC 7644 §3.4.2.2), the strict subset this service answers: one equality on an
 * attribute the resource type allows, as the spec names them (`userName eq`, `externalId eq`) and as
 * provisioning clients send them (Entra's `emails[type eq "work"].value eq`, `emails.value eq`,
 * `displayName eq` for users and groups). Attribute names and the operator are case-insensitive (RFC 7643 §2.1),
 * the value is a JSON string. Anything else, a bare value without an operator included, is refused
 * with the reason, for a 400 `invalidFilter`. What this returns is data a query can use, never text.
 */

export const USER_FILTER_ATTRIBUTES = ['userName', 'externalId', 'emails.value', 'displayName'] as const;
export const GROUP_FILTER_ATTRIBUTES = ['displayName', 'externalId'] as const;
export type FilterAttribute = (typeof USER_FILTER_ATTRIBUTES)[number] | (typeof GROUP_FILTER_ATTRIBUTES)[number];

export interface EqualityFilter<A extends FilterAttribute = FilterAttribute> {
  attribute: A;
  value: string;
  /** `emails[type eq "<type>"].value`: only the addresses of that type. */
  emailType?: string;
}

export type FilterResult<A extends FilterAttribute> = { ok: true; filter: EqualityFilter<A> } | { ok: false; detail: string };

/** A filter is short: longer input is refused before it is read. */
export const MAX_FILTER_LENGTH = 1024;

const ATTRIBUTE = String.raw`([A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z][A-Za-z0-9_-]*)?)`;
const JSON_STRING = String.raw`("(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9A-Fa-f]{4})*")`;
const SIMPLE = new RegExp(String.raw`^\s*${ATTRIBUTE}\s+(eq)\s+${JSON_STRING}\s*$`, 'i');
const EMAIL_OF_TYPE = new RegExp(String.raw`^\s*(emails)\[\s*(type)\s+(eq)\s+${JSON_STRING}\s*\]\.(value)\s+(eq)\s+${JSON_STRING}\s*$`, 'i');

function canonical<A extends FilterAttribute>(name: string, allowed: readonly A[]): A | undefined {
  return allowed.find((attribute) => attribute.toLowerCase() === name.toLowerCase());
}

const fail = (detail: string) => ({ ok: false as const, detail });

/** The filter, or why it is refused; `allowed`: the attributes the resource type filters on. */
export function parseFilter<A extends FilterAttribute>(text: string, allowed: readonly A[]): FilterResult<A> {
  if (text.length > MAX_FILTER_LENGTH) return fail(`A filter is at most ${MAX_FILTER_LENGTH} characters.`);
  const typed = EMAIL_OF_TYPE.exec(text);
  if (typed) {
    const attribute = canonical('emails.value', allowed);
    if (!attribute) return fail('This resource type is not filtered by emails.');
    return { ok: true, filter: { attribute, value: JSON.parse(typed[7]!) as string, emailType: JSON.parse(typed[4]!) as string } };
  }
  const simple = SIMPLE.exec(text);
  if (!simple) return fail(`Supported filters: <attribute> eq "<value>", with attribute one of ${allowed.join(', ')}.`);
  const attribute = canonical(simple[1]!, allowed);
  if (!attribute) return fail(`Filtering by ${simple[1]} is not supported; use one of ${allowed.join(', ')}.`);
  return { ok: true, filter: { attribute, value: JSON.parse(simple[3]!) as string } };
}
