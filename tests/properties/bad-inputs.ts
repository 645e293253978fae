/**
 * Bad-input classes, each an arbitrary of requests derived from the operation's own declaration:
 * its schemas (via schema-arbitrary.ts), its path, method, body limit, idempotency and auth term.
 * A class starts from a valid-looking request and breaks one thing, so the break travels as far as
 * it can. Which classes apply to an operation follows from its declaration alone.
 */
import fc from 'fast-check';
import { isUnsafe, type AnyOperation } from '@/lib/contract/operation';
import { DEFAULT_MAX_BODY_BYTES } from '@/lib/http/body';
import { encodeCursor } from '@/lib/http/cursor';
import { protocolCores, protocolSchema, type ProtocolFixtures } from './protocol-parameters';
import { fieldsOf, inputSchemaOf, jsonTypeOf, jsonTypesOf, valueArbitrary, type Field, type FieldPath, type JsonSchema } from './schema-arbitrary';

export const BAD_INPUT_CLASSES = [
  'wrong_type',
  'missing_field',
  'extra_field',
  'control_characters',
  'oversized_field',
  'oversized_body',
  'invalid_json',
  'wrong_content_type',
  'odd_path_id',
  'query_junk',
  'bad_pagination',
  'unsupported_version',
  'header_junk',
  'bad_csrf',
  'bad_idempotency_key',
] as const;
export type BadInputClass = (typeof BAD_INPUT_CLASSES)[number];

type Json = Record<string, unknown>;
type Encoding = 'json' | 'form';

/** One request, before credentials are added (see probe.ts). */
export interface Draft {
  /** What was broken, in words, for the failure message. */
  note: string;
  params: Record<string, string>;
  query: Json;
  /** Appended to the encoded query as it is (malformed escapes, stray separators). */
  rawQuery?: string;
  body?: { value: unknown; encoding: Encoding } | { text: string };
  /** null: no Content-Type header at all (fetch then labels a string body text/plain). */
  contentType?: string | null;
  /** Header overrides; null removes a header the credential mode would send. */
  headers?: Record<string, string | null>;
  /** Sent first and not judged (the first use of a reused Idempotency-Key). */
  prelude?: Draft;
}

/** Where an operation takes structured input: its query and/or its body. */
interface Carrier {
  where: 'query' | 'body';
  schema: JsonSchema;
  encodings: Encoding[];
  base: fc.Arbitrary<Json>;
}

export interface OperationInputs {
  op: AnyOperation;
  carriers: Carrier[];
  params: fc.Arbitrary<Record<string, string>>;
  bodyLimit: number;
}

const pathParamNames = (op: AnyOperation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

export function inputsOf(op: AnyOperation, protocol: ProtocolFixtures): OperationInputs {
  const carriers: Carrier[] = [];
  const objectCarrier = (where: Carrier['where'], schema: JsonSchema, encodings: Encoding[], base?: fc.Arbitrary<Json>): Carrier => ({
    where,
    schema,
    encodings,
    base: base ?? (valueArbitrary(schema) as fc.Arbitrary<Json>),
  });
  if (op.kind === 'delegated') {
    // The provider's protocol parameters: query for GET, a form (or JSON, which some endpoints take) otherwise.
    const schema = protocolSchema(protocol);
    const base = fc.oneof(fc.constantFrom(...protocolCores(protocol)), valueArbitrary(schema) as fc.Arbitrary<Json>);
    carriers.push(objectCarrier(op.method === 'GET' ? 'query' : 'body', schema, ['form', 'json'], base));
  } else {
    if (op.query) carriers.push(objectCarrier('query', inputSchemaOf(op.query), ['form']));
    if (op.kind === 'resource' && op.body) carriers.push(objectCarrier('body', inputSchemaOf(op.body), op.acceptsForm ? ['json', 'form'] : ['json']));
  }
  const declaredParams = op.params ? inputSchemaOf(op.params) : null;
  const params = fc.record(
    Object.fromEntries(
      pathParamNames(op).map((name) => {
        const schema = declaredParams?.properties?.[name];
        return [name, schema ? (valueArbitrary(schema) as fc.Arbitrary<string>) : fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/)];
      }),
    ),
  );
  return { op, carriers, params, bodyLimit: op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
}

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Characters that make no sense in identifiers, addresses or names; NUL most of all (item 6). */
const CONTROL = fc.oneof(
  { weight: 3, arbitrary: fc.constant('\u0000') },
  { weight: 3, arbitrary: fc.constantFrom('\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u000b', '\u001b', '\u001f', '\u007f', '\u0085') },
  { weight: 2, arbitrary: fc.constantFrom('\u2028', '\u2029', '\ufeff', '\u200b', '\u202e', '\ud800', '\udfff') },
);

function inject(text: string, control: string, at: number): string {
  const position = text.length === 0 ? 0 : at % (text.length + 1);
  return `${text.slice(0, position)}${control}${text.slice(position)}`;
}

/** Odd strings for queries and path ids: control characters, unicode, escapes, lengths. */
const ODD_STRING = fc.oneof(
  fc.tuple(fc.string({ maxLength: 12 }), CONTROL, fc.nat()).map(([text, control, at]) => inject(text, control, at)),
  fc.constantFrom('..', '.', '../../etc/passwd', '%00', '%2e%2e', '%', '%zz', '\\', '/', ' ', '', 'null', 'undefined', '-1', '0', '[]', '{}', "' or 1=1 --"),
  fc.constantFrom('ü', 'e\u0301', '😀', 'ﬀ', 'İ', '\u202eevil', '日本語', 'A'.repeat(3)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }),
  fc.integer({ min: 1025, max: 12_000 }).map((n) => 'x'.repeat(n)),
);

/** A valid header value (no NUL, CR or LF: fetch refuses those) that is otherwise anything bytes allow. */
const HEADER_JUNK = fc.oneof(
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 80 }).map((s) => s.replace(/[\0\r\n]/g, 'x')),
  fc.constantFrom('é', 'ÿÿÿÿ', '\u0001', 'x\u007fy', ' ', '""', 'Bearer', 'Bearer ', 'Basic Og==', 'session=', 'session=Fe26.2**', '__proto__'),
  fc.integer({ min: 4096, max: 16_000 }).map((n) => 'h'.repeat(n)),
);

const WRONG_VALUES: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -0, 2 ** 53 + 1, -1),
  fc.string({ maxLength: 8 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
);

const EXTRA_KEYS = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'id', 'user_id', 'role', 'is_admin', 'email_verified', '$where', 'a\u0000b', ''),
  fc.string({ maxLength: 16 }),
);

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Sets a property as an own, enumerable one (so `__proto__` really is sent as a key). */
function define(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

function setAt(root: Json, path: FieldPath, value: unknown): Json {
  const copy = clone(root);
  let node: Json = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) define(node, key, {});
    node = node[key] as Json;
  }
  define(node, path.at(-1)!, value);
  return copy;
}

function deleteAt(root: Json, path: FieldPath): Json {
  const copy = clone(root);
  let node: Json | undefined = copy;
  for (const key of path.slice(0, -1)) node = node?.[key] as Json | undefined;
  if (node && typeof node === 'object') delete node[path.at(-1)!];
  return copy;
}

function getAt(root: Json, path: FieldPath): unknown {
  let node: unknown = root;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Json)[key] : undefined;
  return node;
}

const describePath = (path: FieldPath) => path.join('.');

interface Context {
  /** Length of this deployment's CSRF token (a wrong token of the same length takes the deepest path). */
  csrfLength: number;
}

/** A valid-looking request: every carrier filled, encoded the first way the operation accepts. */
function validDraft(inputs: OperationInputs): fc.Arbitrary<Draft> {
  const query = inputs.carriers.find((c) => c.where === 'query');
  const body = inputs.carriers.find((c) => c.where === 'body');
  return fc.record({
    params: inputs.params,
    query: query ? query.base : fc.constant({}),
    body: body ? body.base : fc.constant(undefined),
    // A fresh key where the operation takes one, so a break reaches the handler, not the key check.
    key: fc.uuid(),
  }).map(({ params, query: q, body: b, key }): Draft => ({
    note: 'valid-looking request',
    params,
    query: q,
    body: b === undefined ? undefined : { value: b, encoding: body!.encodings[0]! },
    headers: inputs.op.idempotency === 'none' ? {} : { 'idempotency-key': key },
  }));
}

/** Applies `change` to one carrier's value. */
function onCarrier(carrier: Carrier, change: (value: Json) => { value: unknown; note: string }) {
  return (draft: Draft): Draft => {
    const current = carrier.where === 'query' ? draft.query : ((draft.body as { value?: unknown } | undefined)?.value as Json);
    const { value, note } = change(current ?? {});
    if (carrier.where === 'query') return { ...draft, note: `query: ${note}`, query: value as Json };
    const encoding = (draft.body as { encoding?: Encoding } | undefined)?.encoding ?? carrier.encodings[0]!;
    return { ...draft, note: `body (${encoding}): ${note}`, body: { value, encoding } };
  };
}

function carrierArbitrary(inputs: OperationInputs, make: (carrier: Carrier) => fc.Arbitrary<(draft: Draft) => Draft> | null): fc.Arbitrary<Draft> | null {
  const options = inputs.carriers.map(make).filter((a): a is fc.Arbitrary<(draft: Draft) => Draft> => a !== null);
  if (options.length === 0) return null;
  return fc.tuple(validDraft(inputs), fc.oneof(...options)).map(([draft, change]) => change(draft));
}

const fieldChoice = (fields: Field[]) => fc.constantFrom(...fields);

// ---------------------------------------------------------------------------------------------
// The classes

const wrongType = (inputs: OperationInputs) =>
  carrierArbitrary(inputs, (carrier) => {
    // A field that accepts any JSON (z.unknown()) has no wrong type.
    const fields = fieldsOf(carrier.schema).filter((f) => jsonTypesOf(f.schema).size < 6);
    const whole = fc.constantFrom<unknown>(null, [], 'text', 42, true, [{}]).map((value) => onCarrier(carrier, () => ({ value, note: `whole value is ${jsonTypeOf(value)}` })));
    if (fields.length === 0 || carrier.where === 'query') return carrier.where === 'body' ? whole : null;
    const field = fc.tuple(fieldChoice(fields), WRONG_VALUES)
      .filter(([f, value]) => !jsonTypesOf(f.schema).has(jsonTypeOf(value)))
      .map(([f, value]) => onCarrier(carrier, (current) => ({ value: setAt(current, f.path, value), note: `${describePath(f.path)} is ${jsonTypeOf(value)}` })));
    return fc.oneof({ weight: 4, arbitrary: field }, { weight: 1, arbitrary: whole });
  });

const missingField = (inputs: OperationInputs) =>
  carrierArbitrary(inputs, (carrier) => {
    const required = fieldsOf(carrier.schema).filter((f) => f.required);
    if (required.length > 0) {
      return fieldChoice(required).map((f) => onCarrier(carrier, (current) => ({ value: deleteAt(current, f.path), note: `${describePath(f.path)} missing` })));
    }
    // Nothing is required by us (protocol parameters): drop whatever the request carries.
    if (!carrier.schema.properties || Object.keys(carrier.schema.properties).length === 0) return null;
    return fc.nat().map((n) => onCarrier(carrier, (current) => {
      const keys = Object.keys(current);
      if (keys.length === 0) return { value: current, note: 'nothing to drop' };
      const key = keys[n % keys.length]!;
      return { value: deleteAt(current, [key]), note: `${key} missing` };
    }));
  });

const extraField = (inputs: OperationInputs) =>
  carrierArbitrary(inputs, (carrier) => {
    const objects = [[] as FieldPath, ...fieldsOf(carrier.schema).filter((f) => jsonTypesOf(f.schema).has('object')).map((f) => f.path)];
    return fc.tuple(fc.constantFrom(...objects), EXTRA_KEYS, fc.jsonValue({ maxDepth: 2 })).map(([at, key, value]) =>
      onCarrier(carrier, (current) => {
        const declared = new Set(Object.keys((at.length === 0 ? carrier.schema : fieldsOf(carrier.schema).find((f) => describePath(f.path) === describePath(at))?.schema)?.properties ?? {}));
        const name = declared.has(key) ? `${key}_extra` : key;
        return { value: setAt(current, [...at, name], value), note: `extra field ${JSON.stringify([...at, name].join('.'))}` };
      }),
    );
  });

const controlCharacters = (inputs: OperationInputs) =>
  carrierArbitrary(inputs, (carrier) => {
    const fields = fieldsOf(carrier.schema);
    const inField = fields.length
      ? fc.tuple(fieldChoice(fields), CONTROL, fc.nat()).map(([f, control, at]) =>
          onCarrier(carrier, (current) => {
            const present = getAt(current, f.path);
            const text = inject(typeof present === 'string' ? present : 'value', control, at);
            return { value: setAt(current, f.path, text), note: `${describePath(f.path)} contains ${JSON.stringify(control)}` };
          }),
        )
      : null;
    const inKey = fc.tuple(CONTROL, fc.string({ maxLength: 6 })).map(([control, key]) =>
      onCarrier(carrier, (current) => ({ value: setAt(current, [`${key}${control}`], 'v'), note: `a key contains ${JSON.stringify(control)}` })),
    );
    // Every free-text field the request carries at once: a few runs then reach each place a NUL could
    // end up (item 6).
    const freeText = fields.filter((f) => isFreeText(f.schema));
    const inEveryFreeText = freeText.length
      ? CONTROL.map((control) =>
          onCarrier(carrier, (current) => {
            const targets = freeText.filter((f) => f.required || typeof getAt(current, f.path) === 'string');
            return {
              value: targets.reduce((value, f) => setAt(value, f.path, inject((getAt(value, f.path) as string | undefined) ?? 'value', control, 1)), current),
              note: `${targets.map((f) => describePath(f.path)).join(', ') || 'no field'} contain ${JSON.stringify(control)}`,
            };
          }),
        )
      : null;
    const options = [inField && { weight: 3, arbitrary: inField }, inEveryFreeText && { weight: 3, arbitrary: inEveryFreeText }, { weight: 1, arbitrary: inKey }];
    return fc.oneof(...options.filter((o): o is { weight: number; arbitrary: fc.Arbitrary<(draft: Draft) => Draft> } => Boolean(o)));
  });

/** A string field without a format, pattern or fixed values: where arbitrary text is accepted. */
function isFreeText(schema: JsonSchema): boolean {
  const text = (schema.anyOf ?? schema.oneOf ?? [schema]).find((s) => s.type === 'string');
  return text !== undefined && text.pattern === undefined && text.format === undefined && text.enum === undefined && text.const === undefined;
}

function oversizedValue(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const types = jsonTypesOf(schema);
  const plain = schema.anyOf?.find((s) => s.type === 'string') ?? schema;
  if (types.has('string')) {
    const max = plain.maxLength;
    const length = max !== undefined ? fc.integer({ min: max + 1, max: max + Math.max(16, max) }) : fc.integer({ min: 4096, max: 30_000 });
    return fc.tuple(length, fc.constantFrom('a', 'é', '😀', '0')).map(([n, unit]) => unit.repeat(n));
  }
  if (types.has('array')) return fc.integer({ min: (schema.maxItems ?? 200) + 1, max: (schema.maxItems ?? 200) + 300 }).map((n) => Array.from({ length: n }, () => 'x'));
  if (types.has('number')) return fc.constantFrom((schema.maximum ?? 0) + 1, (schema.minimum ?? 0) - 1, 1e308, 2 ** 53 + 1, -(2 ** 53) - 1);
  return null;
}

const oversizedField = (inputs: OperationInputs) =>
  carrierArbitrary(inputs, (carrier) => {
    const options = fieldsOf(carrier.schema)
      .map((f) => ({ f, value: oversizedValue(f.schema) }))
      .filter((o): o is { f: Field; value: fc.Arbitrary<unknown> } => o.value !== null)
      .map(({ f, value }) => value.map((v) => onCarrier(carrier, (current) => ({ value: setAt(current, f.path, v), note: `${describePath(f.path)} oversized (${String((v as { length?: number }).length ?? v)})` }))));
    return options.length ? fc.oneof(...options) : null;
  });

/**
 * Over the operation's body limit: by one byte, far over, and over in bytes though not in characters
 * (two-byte characters); plus a body of exactly the limit, which the size check must let through.
 */
const oversizedBody = (inputs: OperationInputs): fc.Arbitrary<Draft> | null => {
  if (!isUnsafe(inputs.op.method)) return null;
  const limit = inputs.bodyLimit;
  const sizes = { 'one byte over': ['x', limit + 1], 'four times': ['x', limit * 4], 'over in bytes, not characters': ['é', limit + 1], 'exactly at': ['x', limit] } as const;
  return fc.tuple(validDraft(inputs), fc.constantFrom(...(Object.keys(sizes) as (keyof typeof sizes)[]))).map(([draft, how]) => {
    const [unit, bytes] = sizes[how];
    const pad = (text: string) => JSON.stringify({ ...(draft.body && 'value' in draft.body ? (draft.body.value as Json) : {}), padding: text });
    const room = bytes - Buffer.byteLength(pad(''));
    const text = pad(unit.repeat(Math.ceil(room / Buffer.byteLength(unit))));
    return { ...draft, note: `body ${how} the ${limit}-byte limit (${Buffer.byteLength(text)} bytes)`, body: { text }, contentType: 'application/json' };
  });
};

const takesBody = (inputs: OperationInputs) => inputs.carriers.some((c) => c.where === 'body');

const invalidJson = (inputs: OperationInputs): fc.Arbitrary<Draft> | null => {
  if (!takesBody(inputs)) return null;
  return fc.tuple(validDraft(inputs), fc.nat(), fc.constantFrom('truncated', 'trailing', 'bom', 'single_quotes', 'literal', 'raw_control', 'deep')).map(([draft, n, how]) => {
    const json = JSON.stringify(draft.body && 'value' in draft.body ? draft.body.value : {});
    const text =
      how === 'truncated' ? json.slice(0, n % Math.max(json.length, 1))
      : how === 'trailing' ? `${json} garbage`
      : how === 'bom' ? `\ufeff${json}`
      : how === 'single_quotes' ? json.replace(/"/g, "'")
      : how === 'literal' ? ['NaN', 'undefined', '{a:1}', '{"a":1,}', '/* c */{}', "{'a'}", '[', '"'][n % 8]!
      : how === 'raw_control' ? `{"value":"a\u0000b\u0001"}`
      : `${'['.repeat(5000 + (n % 5000))}${']'.repeat(5000 + (n % 5000))}`;
    return { ...draft, note: `invalid JSON (${how})`, body: { text }, contentType: 'application/json' };
  });
};

const CONTENT_TYPES = [
  'text/plain',
  'text/html; charset=utf-8',
  'application/xml',
  'multipart/form-data; boundary=----probe',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'application/json',
  'application/jsonx',
  'json',
  '',
  '*/*',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
];

const wrongContentType = (inputs: OperationInputs): fc.Arbitrary<Draft> | null => {
  if (!takesBody(inputs)) return null;
  return fc.tuple(validDraft(inputs), fc.constantFrom<Encoding>('json', 'form'), fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: null })).map(([draft, encoding, contentType]) => ({
    ...draft,
    note: `${encoding} body sent as ${contentType === null ? '(no Content-Type)' : JSON.stringify(contentType)}`,
    body: { value: draft.body && 'value' in draft.body ? draft.body.value : {}, encoding },
    contentType,
  }));
};

const oddPathId = (inputs: OperationInputs): fc.Arbitrary<Draft> | null => {
  const names = pathParamNames(inputs.op);
  if (names.length === 0) return null;
  return fc.tuple(validDraft(inputs), fc.constantFrom(...names), fc.oneof(ODD_STRING, fc.uuid().map((u) => u.toUpperCase()), fc.uuid().map((u) => `${u}\u0000`))).map(([draft, name, value]) => ({
    ...draft,
    note: `path {${name}} = ${JSON.stringify(value.length > 40 ? `${value.slice(0, 20)}... (${value.length} chars)` : value)}`,
    params: { ...draft.params, [name]: value },
  }));
};

const RAW_QUERY_TAILS = ['&', '&&', '=', '%zz=1', 'a=%', '%E0%A4%A=x', 'a[b]=c', 'a=1&a=2', '%00=%00', 'limit=1&limit=2', '%C3%28=%C3%28'];

const queryJunk = (inputs: OperationInputs): fc.Arbitrary<Draft> => {
  const declared = inputs.carriers.filter((c) => c.where === 'query').flatMap((c) => Object.keys(c.schema.properties ?? {}));
  const key = fc.oneof(fc.constantFrom(...declared, 'limit', 'cursor', '__proto__', 'scope'), fc.string({ maxLength: 12 }));
  return fc.tuple(validDraft(inputs), fc.dictionary(key, ODD_STRING, { minKeys: 1, maxKeys: 3 }), fc.option(fc.constantFrom(...RAW_QUERY_TAILS), { nil: undefined })).map(([draft, junk, tail]) => ({
    ...draft,
    note: `query junk ${JSON.stringify(Object.keys(junk))}${tail ? ` + raw ${JSON.stringify(tail)}` : ''}`,
    query: { ...draft.query, ...junk },
    rawQuery: tail,
  }));
};

const badPagination = (inputs: OperationInputs): fc.Arbitrary<Draft> | null => {
  if (inputs.op.kind !== 'collection') return null;
  const limit = fc.constantFrom('0', '-1', '101', '1e2', '1.5', 'abc', '', ' ', '0x10', '9'.repeat(400), '١٠', '+5', 'NaN', 'Infinity', '\u0000');
  const cursor = fc.oneof(
    fc.constantFrom('', '.', 'a.b', 'a.b.c', 'x'.repeat(300), '\u0000', '%00', 'eyJ9.AAAA'),
    fc.base64String({ maxLength: 40 }),
    // Cursors this service issued, for another collection: authenticated, but not for this one.
    fc.uuid().map((id) => encodeCursor('anotherCollection', { createdAt: new Date('2026-01-01T00:00:00Z'), id })),
  );
  return fc.tuple(validDraft(inputs), fc.option(limit, { nil: undefined }), fc.option(cursor, { nil: undefined }))
    .filter(([, l, c]) => l !== undefined || c !== undefined)
    .map(([draft, l, c]) => ({
      ...draft,
      note: `pagination limit=${JSON.stringify(l)} cursor=${JSON.stringify(c && c.length > 40 ? `${c.slice(0, 20)}...` : c)}`,
      query: { ...draft.query, ...(l !== undefined ? { limit: l } : {}), ...(c !== undefined ? { cursor: c } : {}) },
    }));
};

const unsupportedVersion = (inputs: OperationInputs): fc.Arbitrary<Draft> =>
  fc.tuple(validDraft(inputs), fc.oneof(fc.constantFrom('v2', 'v0', 'V1', '1', 'v1.0', 'v1, v2', '', 'v1;q=1', 'latest'), HEADER_JUNK))
    .filter(([, version]) => version.trim() !== 'v1')
    .map(([draft, version]) => ({ ...draft, note: `X-Service-API-Version ${JSON.stringify(version.slice(0, 40))}`, headers: { ...draft.headers, 'x-service-api-version': version } }));

const JUNK_HEADERS = ['x-request-id', 'idempotency-key', 'x-csrf-token', 'cookie', 'authorization', 'x-enrollment-token', 'x-recovery-token', 'x-forwarded-for', 'user-agent', 'accept', 'sec-fetch-site', 'accept-language'];

const headerJunk = (inputs: OperationInputs): fc.Arbitrary<Draft> =>
  fc.tuple(validDraft(inputs), fc.dictionary(fc.constantFrom(...JUNK_HEADERS), HEADER_JUNK, { minKeys: 1, maxKeys: 3 })).map(([draft, headers]) => ({
    ...draft,
    note: `header junk in ${Object.keys(headers).join(', ')}`,
    headers: { ...draft.headers, ...headers },
  }));

/** Session-authenticated unsafe operations only (the mode decides; see appliesTo). */
const badCsrf = (inputs: OperationInputs, context: Context): fc.Arbitrary<Draft> | null => {
  const { op } = inputs;
  if (op.auth.kind !== 'session' || !isUnsafe(op.method)) return null;
  const sameLength = (unit: 'binary-ascii' | 'grapheme-ascii') =>
    fc.string({ unit, minLength: context.csrfLength, maxLength: context.csrfLength }).map((s) => s.replace(/[\0\r\n]/g, 'x').replace(/^\s|\s$/g, 'x'));
  const token = fc.oneof(fc.constant(null), fc.constant(''), sameLength('grapheme-ascii'), sameLength('binary-ascii'), HEADER_JUNK);
  return fc.tuple(validDraft(inputs), token).map(([draft, value]) => ({
    ...draft,
    note: value === null ? 'no X-CSRF-Token' : `X-CSRF-Token ${JSON.stringify(value.slice(0, 60))} (${value.length} chars)`,
    headers: { ...draft.headers, 'x-csrf-token': value },
  }));
};

const badIdempotencyKey = (inputs: OperationInputs): fc.Arbitrary<Draft> | null => {
  if (inputs.op.idempotency === 'none') return null;
  const key = fc.oneof(fc.constant(null), fc.constantFrom('', ' ', 'a b', 'é', 'k\u0001', 'k\u007f', 'k'.repeat(256)), HEADER_JUNK);
  const malformed = fc.tuple(validDraft(inputs), key).map(([draft, value]): Draft => ({
    ...draft,
    note: value === null ? 'no Idempotency-Key' : `Idempotency-Key ${JSON.stringify(value.slice(0, 40))} (${value.length} chars)`,
    headers: { ...draft.headers, 'idempotency-key': value },
  }));
  // The same key again with another body: 422, and nothing written the second time.
  const reused = fc.tuple(validDraft(inputs), validDraft(inputs), fc.uuid()).map(([first, second, value]): Draft => ({
    ...second,
    note: 'Idempotency-Key reused with another body',
    body: { text: `${JSON.stringify(second.body && 'value' in second.body ? second.body.value : {})} ` },
    contentType: 'application/json',
    headers: { ...second.headers, 'idempotency-key': value },
    prelude: { ...first, headers: { ...first.headers, 'idempotency-key': value } },
  }));
  return fc.oneof(malformed, reused);
};

const GENERATORS: Record<BadInputClass, (inputs: OperationInputs, context: Context) => fc.Arbitrary<Draft> | null> = {
  wrong_type: wrongType,
  missing_field: missingField,
  extra_field: extraField,
  control_characters: controlCharacters,
  oversized_field: oversizedField,
  oversized_body: oversizedBody,
  invalid_json: invalidJson,
  wrong_content_type: wrongContentType,
  odd_path_id: oddPathId,
  query_junk: queryJunk,
  bad_pagination: badPagination,
  unsupported_version: unsupportedVersion,
  header_junk: headerJunk,
  bad_csrf: badCsrf,
  bad_idempotency_key: badIdempotencyKey,
};

/** The classes that apply to an operation, each with its arbitrary. */
export function badInputsFor(inputs: OperationInputs, csrfLength: number): Map<BadInputClass, fc.Arbitrary<Draft>> {
  const classes = new Map<BadInputClass, fc.Arbitrary<Draft>>();
  for (const name of BAD_INPUT_CLASSES) {
    const arbitrary = GENERATORS[name](inputs, { csrfLength });
    if (arbitrary) classes.set(name, arbitrary);
  }
  return classes;
}
