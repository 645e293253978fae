/**
 * Bad-input classes, each an arbitrary of requests derived from the operation's own declaration:
 * its schemas (via schema-arbitrary.ts), its path, method, body limit, idempotency and auth term.
 * A class starts from a valid-looking request and breaks one thing, so the break travels as far as
 * it can. Which classes apply to an operation follows from its declaration alone.
 */
import fc from 'fast-check';
import { isUnsafe } from '@/lib/contract/operation';
import { encodeCursor } from '@/lib/http/cursor';
import {
  carrierArbitrary,
  deleteAt,
  describePath,
  getAt,
  onCarrier,
  pathParamNames,
  setAt,
  validDraft,
  type Draft,
  type Encoding,
  type Json,
  type OperationInputs,
} from './drafts';
import { CONTROL, EXTRA_KEYS, HEADER_JUNK, headerValueOfLength, inject, ODD_STRING, WRONG_VALUES } from './junk';
import { fieldsOf, jsonTypeOf, jsonTypesOf, type Field, type FieldPath, type JsonSchema } from './schema-arbitrary';

export const BAD_INPUT_CLASSES = [
  'wrong_type',
  'missing_field',
  'extra_field',
  'control_characters',
  'nul_everywhere',
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

interface Context {
  /** Length of this deployment's CSRF token (a wrong token of the same length takes the deepest path). */
  csrfLength: number;
}

const fieldChoice = (fields: Field[]) => fc.constantFrom(...fields);

/** A value as a reader can see it: JSON-quoted, every non-ASCII character escaped, long ones cut. */
function shown(text: string, max = 40): string {
  const quoted = JSON.stringify(text.slice(0, max)).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${quoted} (${text.length} chars)`;
}

// ---------------------------------------------------------------------------------------------
// The classes

const wrongType = (inputs: OperationInputs) =>
  carrierArbitrary(inputs, (carrier) => {
    // A field that accepts any JSON (z.unknown()) has no wrong type.
    const fields = fieldsOf(carrier.schema).filter((f) => jsonTypesOf(f.schema).size < 6);
    const whole = fc
      .constantFrom<unknown>(null, [], 'text', 42, true, [{}])
      .map((value) => onCarrier(carrier, () => ({ value, note: `whole value is ${jsonTypeOf(value)}` })));
    if (fields.length === 0 || carrier.where === 'query') return carrier.where === 'body' ? whole : null;
    const field = fc
      .tuple(fieldChoice(fields), WRONG_VALUES)
      .filter(([f, value]) => !jsonTypesOf(f.schema).has(jsonTypeOf(value)))
      .map(([f, value]) =>
        onCarrier(carrier, (current) => ({ value: setAt(current, f.path, value), note: `${describePath(f.path)} is ${jsonTypeOf(value)}` })),
      );
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
    return fc.nat().map((n) =>
      onCarrier(carrier, (current) => {
        const keys = Object.keys(current);
        if (keys.length === 0) return { value: current, note: 'nothing to drop' };
        const key = keys[n % keys.length]!;
        return { value: deleteAt(current, [key]), note: `${key} missing` };
      }),
    );
  });

const extraField = (inputs: OperationInputs) =>
  carrierArbitrary(inputs, (carrier) => {
    const objects = [
      [] as FieldPath,
      ...fieldsOf(carrier.schema)
        .filter((f) => jsonTypesOf(f.schema).has('object'))
        .map((f) => f.path),
    ];
    return fc.tuple(fc.constantFrom(...objects), EXTRA_KEYS, fc.jsonValue({ maxDepth: 2 })).map(([at, key, value]) =>
      onCarrier(carrier, (current) => {
        const declared = new Set(
          Object.keys(
            (at.length === 0 ? carrier.schema : fieldsOf(carrier.schema).find((f) => describePath(f.path) === describePath(at))?.schema)?.properties ?? {},
          ),
        );
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
    const inKey = fc
      .tuple(CONTROL, fc.string({ maxLength: 6 }))
      .map(([control, key]) =>
        onCarrier(carrier, (current) => ({ value: setAt(current, [`${key}${control}`], 'v'), note: `a key contains ${JSON.stringify(control)}` })),
      );
    return fc.oneof({ weight: 3, arbitrary: inField ?? inKey }, { weight: 1, arbitrary: inKey });
  });

/**
 * NUL (item 6) in every free-text field at once, starting from a request the operation accepts: each run
 * then reaches every place a NUL could end up. Where the operation's schema can judge, only fields that
 * let it through are changed (one refused field would stop the others before storage); protocol
 * requests get it in every free-text parameter they carry.
 */
const nulEverywhere = (inputs: OperationInputs) =>
  carrierArbitrary(
    inputs,
    (carrier) => {
      const freeText = fieldsOf(carrier.schema).filter((f) => isFreeText(f.schema));
      if (freeText.length === 0) return null;
      return fc.constant(
        onCarrier(carrier, (current) => {
          const withNul = (value: Json, f: Field) => setAt(value, f.path, inject((getAt(value, f.path) as string | undefined) ?? 'value', '\u0000', 1));
          const judge = carrier.accepts;
          const targets = judge
            ? freeText.filter((f) => judge(withNul(current, f)))
            : freeText.filter((f) => f.required || typeof getAt(current, f.path) === 'string');
          return { value: targets.reduce(withNul, current), note: `NUL in ${targets.map((f) => describePath(f.path)).join(', ') || 'no field'}` };
        }),
      );
    },
    true,
  );

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
  if (types.has('array'))
    return fc.integer({ min: (schema.maxItems ?? 200) + 1, max: (schema.maxItems ?? 200) + 300 }).map((n) => Array.from({ length: n }, () => 'x'));
  if (types.has('number')) return fc.constantFrom((schema.maximum ?? 0) + 1, (schema.minimum ?? 0) - 1, 1e308, 2 ** 53 + 1, -(2 ** 53) - 1);
  return null;
}

const oversizedField = (inputs: OperationInputs) =>
  carrierArbitrary(inputs, (carrier) => {
    const options = fieldsOf(carrier.schema)
      .map((f) => ({ f, value: oversizedValue(f.schema) }))
      .filter((o): o is { f: Field; value: fc.Arbitrary<unknown> } => o.value !== null)
      .map(({ f, value }) =>
        value.map((v) =>
          onCarrier(carrier, (current) => ({
            value: setAt(current, f.path, v),
            note: `${describePath(f.path)} oversized (${String((v as { length?: number }).length ?? v)})`,
          })),
        ),
      );
    return options.length ? fc.oneof(...options) : null;
  });

/**
 * Over the operation's body limit: by one byte, far over, and over in bytes though not in characters
 * (two-byte characters); plus a body of exactly the limit, which the size check must let through.
 */
const oversizedBody = (inputs: OperationInputs): fc.Arbitrary<Draft> | null => {
  if (!isUnsafe(inputs.op.method)) return null;
  const limit = inputs.bodyLimit;
  const sizes = {
    'one byte over': ['x', limit + 1],
    'four times': ['x', limit * 4],
    'over in bytes, not characters': ['é', limit + 1],
    'exactly at': ['x', limit],
  } as const;
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
  return fc
    .tuple(validDraft(inputs), fc.nat(), fc.constantFrom('truncated', 'trailing', 'bom', 'single_quotes', 'literal', 'raw_control', 'deep'))
    .map(([draft, n, how]) => {
      const json = JSON.stringify(draft.body && 'value' in draft.body ? draft.body.value : {});
      const text =
        how === 'truncated'
          ? json.slice(0, n % Math.max(json.length, 1))
          : how === 'trailing'
            ? `${json} garbage`
            : how === 'bom'
              ? `\ufeff${json}`
              : how === 'single_quotes'
                ? json.replace(/"/g, "'")
                : how === 'literal'
                  ? ['NaN', 'undefined', '{a:1}', '{"a":1,}', '/* c */{}', "{'a'}", '[', '"'][n % 8]!
                  : how === 'raw_control'
                    ? `{"value":"a\u0000b\u0001"}`
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
  return fc
    .tuple(validDraft(inputs), fc.constantFrom<Encoding>('json', 'form'), fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: null }))
    .map(([draft, encoding, contentType]) => ({
      ...draft,
      note: `${encoding} body sent as ${contentType === null ? '(no Content-Type)' : JSON.stringify(contentType)}`,
      body: { value: draft.body && 'value' in draft.body ? draft.body.value : {}, encoding },
      contentType,
    }));
};

const oddPathId = (inputs: OperationInputs): fc.Arbitrary<Draft> | null => {
  const names = pathParamNames(inputs.op);
  if (names.length === 0) return null;
  return fc
    .tuple(
      validDraft(inputs),
      fc.constantFrom(...names),
      fc.oneof(
        ODD_STRING,
        fc.uuid().map((u) => u.toUpperCase()),
        fc.uuid().map((u) => `${u}\u0000`),
      ),
    )
    .map(([draft, name, value]) => ({
      ...draft,
      note: `path {${name}} = ${shown(value)}`,
      params: { ...draft.params, [name]: value },
    }));
};

const RAW_QUERY_TAILS = ['&', '&&', '=', '%zz=1', 'a=%', '%E0%A4%A=x', 'a[b]=c', 'a=1&a=2', '%00=%00', 'limit=1&limit=2', '%C3%28=%C3%28'];

const queryJunk = (inputs: OperationInputs): fc.Arbitrary<Draft> => {
  const declared = inputs.carriers.filter((c) => c.where === 'query').flatMap((c) => Object.keys(c.schema.properties ?? {}));
  const key = fc.oneof(fc.constantFrom(...declared, 'limit', 'cursor', '__proto__', 'scope'), fc.string({ maxLength: 12 }));
  return fc
    .tuple(validDraft(inputs), fc.dictionary(key, ODD_STRING, { minKeys: 1, maxKeys: 3 }), fc.option(fc.constantFrom(...RAW_QUERY_TAILS), { nil: undefined }))
    .map(([draft, junk, tail]) => ({
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
  return fc
    .tuple(validDraft(inputs), fc.option(limit, { nil: undefined }), fc.option(cursor, { nil: undefined }))
    .filter(([, l, c]) => l !== undefined || c !== undefined)
    .map(([draft, l, c]) => ({
      ...draft,
      note: `pagination limit=${JSON.stringify(l)} cursor=${JSON.stringify(c && c.length > 40 ? `${c.slice(0, 20)}...` : c)}`,
      query: { ...draft.query, ...(l !== undefined ? { limit: l } : {}), ...(c !== undefined ? { cursor: c } : {}) },
    }));
};

const unsupportedVersion = (inputs: OperationInputs): fc.Arbitrary<Draft> =>
  fc
    .tuple(validDraft(inputs), fc.oneof(fc.constantFrom('v2', 'v0', 'V1', '1', 'v1.0', 'v1, v2', '', 'v1;q=1', 'latest'), HEADER_JUNK))
    .filter(([, version]) => version.trim() !== 'v1')
    .map(([draft, version]) => ({
      ...draft,
      note: `X-Service-API-Version ${shown(version)}`,
      headers: { ...draft.headers, 'x-service-api-version': version },
    }));

const JUNK_HEADERS = [
  'x-request-id',
  'idempotency-key',
  'x-csrf-token',
  'cookie',
  'authorization',
  'x-enrollment-token',
  'x-recovery-token',
  'x-forwarded-for',
  'user-agent',
  'accept',
  'sec-fetch-site',
  'accept-language',
];

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
  // A token of the right length takes the comparison path; with bytes above 0x7F its byte length differs (item 5).
  const token = fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(null, '') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: context.csrfLength, maxLength: context.csrfLength }) },
    { weight: 3, arbitrary: headerValueOfLength(context.csrfLength) },
    { weight: 1, arbitrary: HEADER_JUNK },
  );
  return fc.tuple(validDraft(inputs), token).map(([draft, value]) => ({
    ...draft,
    note: value === null ? 'no X-CSRF-Token' : `X-CSRF-Token ${shown(value, 60)}`,
    headers: { ...draft.headers, 'x-csrf-token': value },
  }));
};

const badIdempotencyKey = (inputs: OperationInputs): fc.Arbitrary<Draft> | null => {
  if (inputs.op.idempotency === 'none') return null;
  const key = fc.oneof(fc.constant(null), fc.constantFrom('', ' ', 'a b', 'é', 'k\u0001', 'k\u007f', 'k'.repeat(256)), HEADER_JUNK);
  const malformed = fc.tuple(validDraft(inputs), key).map(([draft, value]): Draft => ({
    ...draft,
    note: value === null ? 'no Idempotency-Key' : `Idempotency-Key ${shown(value)}`,
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
  nul_everywhere: nulEverywhere,
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
