/**
 * SCIM PATCH (RFC 7644 §3.5.2) applied to a resource in its canonical JSON form; the result is parsed
 * again by the resource's own rules, so a PATCH can never store what a PUT could not. What real
 * clients send is supported: operation names in any case (Entra's `Replace`, `Add`), pathless add and
 * replace with a partial object (Okta's deactivation; keys may be paths, e.g. `name.givenName`),
 * value filters on multi-valued attributes (`emails[type eq "work"].value`, `members[value eq "…"]`),
 * several attributes in one replace, a single value added to a multi-valued attribute. Paths naming
 * attributes this service does not keep (the enterprise extension, addresses ...) change nothing, as
 * those attributes are ignored on POST and PUT too.
 */
import { isObject } from './attributes';
import { scimInvalid } from './scim-errors';

type Json = Record<string, unknown>;
type Op = 'add' | 'replace' | 'remove';

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
/** Most operations one PATCH may carry. */
export const MAX_OPERATIONS = 100;

export interface ResourceShape {
  /** The core schema URN paths may be prefixed with. */
  schema: string;
  /** Top-level attributes kept, canonical names; multi-valued ones listed in `multiValued`. */
  attributes: readonly string[];
  multiValued: readonly string[];
  /** Attributes a PATCH may not touch (RFC 7643 readOnly): ignored, as on PUT. */
  readOnly: readonly string[];
}

interface Path {
  attribute: string;
  filter?: { attribute: string; value: string };
  sub?: string;
}

const PATH = /^([A-Za-z$][\w$-]*)(?:\[\s*([A-Za-z$][\w$-]*)\s+eq\s+("(?:[^"\\]|\\.)*")\s*\])?(?:\.([A-Za-z$][\w$-]*))?$/i;

/** The path, or null when it names something this service does not keep. */
function parsePath(raw: string, shape: ResourceShape): Path | null {
  let text = raw.trim();
  if (text.toLowerCase().startsWith('urn:')) {
    const prefix = `${shape.schema.toLowerCase()}:`;
    if (!text.toLowerCase().startsWith(prefix)) return null;
    text = text.slice(prefix.length);
  }
  const match = PATH.exec(text);
  if (!match) throw scimInvalid('invalidPath', `The path "${raw.slice(0, 100)}" is not one this service understands.`);
  const attribute = shape.attributes.find((name) => name.toLowerCase() === match[1]!.toLowerCase());
  if (!attribute || shape.readOnly.includes(attribute)) return null;
  let filterValue: string;
  try {
    filterValue = match[3] ? (JSON.parse(match[3]) as string) : '';
  } catch {
    throw scimInvalid('invalidPath', `The filter in "${raw.slice(0, 100)}" is not valid.`);
  }
  return {
    attribute,
    filter: match[2] ? { attribute: match[2], value: filterValue } : undefined,
    sub: match[4],
  };
}

function operationOf(raw: unknown): Op {
  if (typeof raw === 'string') {
    const op = raw.toLowerCase();
    if (op === 'add' || op === 'replace' || op === 'remove') return op;
  }
  throw scimInvalid('invalidSyntax', 'Each operation is add, replace or remove.');
}

/** A key of `object` matching `name` regardless of case (the existing spelling, else `name`). */
function keyFor(object: Json, name: string): string {
  return Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name;
}

function matches(element: unknown, filter: NonNullable<Path['filter']>): boolean {
  if (!isObject(element)) return false;
  const value = element[keyFor(element, filter.attribute)];
  return typeof value === 'string' && value.toLowerCase() === filter.value.toLowerCase();
}

function asList(value: unknown): unknown[] {
  return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
}

/** Adds values to a multi-valued attribute, leaving out those with a `value` already present. */
function union(existing: unknown[], added: unknown[]): unknown[] {
  const seen = new Set(existing.filter(isObject).map((item) => String(item[keyFor(item, 'value')] ?? '').toLowerCase()));
  return [...existing, ...added.filter((item) => !isObject(item) || !seen.has(String(item[keyFor(item, 'value')] ?? '').toLowerCase()))];
}

function applyToAttribute(resource: Json, op: Op, path: Path, value: unknown, shape: ResourceShape): void {
  const { attribute, sub } = path;
  const multiValued = shape.multiValued.includes(attribute);
  if (path.filter) {
    if (!multiValued) throw scimInvalid('invalidPath', `${attribute} is not multi-valued: it has no value filter.`);
    return applyToFiltered(resource, op, path as Required<Pick<Path, 'filter'>> & Path, value);
  }
  if (sub) {
    if (multiValued) throw scimInvalid('invalidPath', `Name the ${attribute} value to change with a filter, e.g. ${attribute}[type eq "work"].${sub}.`);
    const parent = isObject(resource[attribute]) ? (resource[attribute] as Json) : {};
    if (op === 'remove') delete parent[keyFor(parent, sub)];
    else parent[keyFor(parent, sub)] = value;
    resource[attribute] = parent;
    return;
  }
  if (op === 'remove') {
    // A remove with values takes out just those (Entra removes members this way).
    if (multiValued && value !== undefined) {
      const removed = new Set(asList(value).map((item) => (isObject(item) ? String(item[keyFor(item, 'value')] ?? '') : String(item)).toLowerCase()));
      resource[attribute] = asList(resource[attribute]).filter(
        (item) => !isObject(item) || !removed.has(String(item[keyFor(item, 'value')] ?? '').toLowerCase()),
      );
    } else delete resource[attribute];
    return;
  }
  if (multiValued) resource[attribute] = op === 'add' ? union(asList(resource[attribute]), asList(value)) : asList(value);
  else if (op === 'add' && isObject(value) && isObject(resource[attribute])) resource[attribute] = { ...(resource[attribute] as Json), ...value };
  else resource[attribute] = value;
}

function applyToFiltered(resource: Json, op: Op, path: Path & { filter: NonNullable<Path['filter']> }, value: unknown): void {
  const { attribute, filter, sub } = path;
  const list = asList(resource[attribute]);
  const hits = list.filter((element) => matches(element, filter));
  if (op === 'remove') {
    resource[attribute] = sub
      ? list.map((element) => {
          if (!hits.includes(element)) return element;
          const copy = { ...(element as Json) };
          delete copy[keyFor(copy, sub)];
          return copy;
        })
      : list.filter((element) => !hits.includes(element));
    return;
  }
  if (hits.length === 0) {
    // Nothing matches: the value becomes a new element carrying the filter's attribute (Entra adds a work address so).
    const created = sub ? { [filter.attribute]: filter.value, [sub]: value } : isObject(value) ? { [filter.attribute]: filter.value, ...value } : null;
    if (!created) throw scimInvalid('invalidValue', `The value for ${attribute}[…] must be an object.`);
    resource[attribute] = [...list, created];
    return;
  }
  resource[attribute] = list.map((element) => {
    if (!hits.includes(element)) return element;
    if (sub) return { ...(element as Json), [keyFor(element as Json, sub)]: value };
    if (!isObject(value)) throw scimInvalid('invalidValue', `The value for ${attribute}[…] must be an object.`);
    return { ...(element as Json), ...value };
  });
}

function applyOperation(resource: Json, raw: unknown, shape: ResourceShape): void {
  if (!isObject(raw)) throw scimInvalid('invalidSyntax', 'Each operation is an object with op, path and value.');
  const op = operationOf(raw[keyFor(raw, 'op')]);
  const rawPath = raw[keyFor(raw, 'path')];
  const value = raw[keyFor(raw, 'value')];
  if (rawPath === undefined || rawPath === null || rawPath === '') {
    if (op === 'remove') throw scimInvalid('noTarget', 'A remove operation names a path.');
    if (!isObject(value)) throw scimInvalid('invalidValue', `An ${op} without a path takes an object of attributes.`);
    // Each key is itself a path (Okta and Entra send `{"active": false}`, some `{"name.givenName": "…"}`).
    for (const [key, item] of Object.entries(value)) {
      const path = parsePath(key, shape);
      if (path) applyToAttribute(resource, op, path, item, shape);
    }
    return;
  }
  if (typeof rawPath !== 'string') throw scimInvalid('invalidPath', 'path must be a string.');
  if (op !== 'remove' && value === undefined) throw scimInvalid('invalidValue', `An ${op} operation carries a value.`);
  const path = parsePath(rawPath, shape);
  if (path) applyToAttribute(resource, op, path, value, shape);
}

/** The PatchOp's operations applied, in order, to a copy of `resource`. */
export function applyPatch(resource: Json, body: unknown, shape: ResourceShape): Json {
  if (!isObject(body)) throw scimInvalid('invalidSyntax', 'A PATCH body is a PatchOp message.');
  const operations = body[keyFor(body, 'Operations')];
  if (!Array.isArray(operations) || operations.length === 0) throw scimInvalid('invalidSyntax', 'A PatchOp carries a non-empty Operations array.');
  if (operations.length > MAX_OPERATIONS) throw scimInvalid('tooMany', `At most ${MAX_OPERATIONS} operations per PATCH.`);
  const copy = structuredClone(resource);
  for (const operation of operations) applyOperation(copy, operation, shape);
  return copy;
}
