/**
 * Valid-looking values for an operation's own input schemas. The zod schema is read through its
 * JSON Schema (z.toJSONSchema, io: 'input': what a caller sends, before transforms), which is plain
 * data, so a new operation needs nothing here unless it uses a construct this file does not know
 * (the self-test in schema-arbitrary.test.ts then says which).
 *
 * "Valid-looking" matters: a bad-input class breaks ONE thing (a field's type, a control character)
 * in an otherwise acceptable request, so the broken part travels as far into the service as it can.
 */
import fc from 'fast-check';
import { z } from 'zod';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

export function inputSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema & { $schema?: string };
  return rest;
}

/**
 * Strings that many fields accept (addresses, identifiers, zones, tags, paths). A field whose JSON
 * Schema says only "string" may still be refined in zod (an e-mail address behind a transform, an IANA
 * time zone): drawing from this pool lets such fields be valid often enough to get past validation.
 */
const PLAUSIBLE_STRINGS = [
  'person@example.com',
  'Ada.Lovelace+tag@example.org',
  'Europe/Paris',
  'America/New_York',
  'en-GB',
  'fr',
  '/docs',
  '/docs/versioning',
  'https://app.example.com/callback',
  'Ada Lovelace',
  'correct horse battery staple',
  'approve',
  '00000000-0000-4000-8000-000000000000',
];

function stringArbitrary(js: JsonSchema): fc.Arbitrary<string> {
  const min = js.minLength ?? 0;
  const max = js.maxLength ?? 64;
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (js.format === 'uuid') return fc.uuid();
  if (js.format === 'email') return fc.emailAddress().filter(fits);
  if (js.format === 'uri' || js.format === 'url') return fc.webUrl().filter(fits);
  if (js.pattern) return fc.stringMatching(new RegExp(js.pattern)).filter(fits);
  const pool = PLAUSIBLE_STRINGS.filter(fits);
  const free = fc.string({ minLength: Math.max(min, 1), maxLength: Math.min(max, Math.max(min, 1) + 24) });
  return pool.length > 0 ? fc.oneof(fc.constantFrom(...pool), free) : free;
}

function numberArbitrary(js: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = js.minimum ?? (js.exclusiveMinimum !== undefined ? js.exclusiveMinimum + 1 : -1000);
  const max = js.maximum ?? (js.exclusiveMaximum !== undefined ? js.exclusiveMaximum - 1 : 1000);
  return integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary of values the schema describes (small: arrays and maps of at most three entries). */
export function valueArbitrary(js: JsonSchema): fc.Arbitrary<unknown> {
  if (js.const !== undefined) return fc.constant(js.const);
  if (js.enum) return fc.constantFrom(...js.enum);
  const alternatives = js.anyOf ?? js.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map(valueArbitrary));
  const type = Array.isArray(js.type) ? js.type[0] : js.type;
  switch (type) {
    case 'string':
      return stringArbitrary(js);
    case 'integer':
      return numberArbitrary(js, true);
    case 'number':
      return numberArbitrary(js, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(js.items ? valueArbitrary(js.items) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: js.minItems ?? 0,
        maxLength: Math.min(js.maxItems ?? 3, Math.max(js.minItems ?? 0, 3)),
      });
    case 'object':
      return objectArbitrary(js);
    default:
      // `{}` (z.unknown()): anything JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(js: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = js.properties ?? {};
  const declared = fc.record(Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueArbitrary(property)])), {
    requiredKeys: (js.required ?? []).filter((name) => name in properties),
  }) as fc.Arbitrary<Record<string, unknown>>;
  // A map (z.record): keys from propertyNames, values from additionalProperties.
  if (Object.keys(properties).length === 0 && typeof js.additionalProperties === 'object') {
    const keys = js.propertyNames?.enum ? fc.constantFrom(...(js.propertyNames.enum as string[])) : fc.string({ minLength: 1, maxLength: 12 });
    return fc.dictionary(keys, valueArbitrary(js.additionalProperties), { maxKeys: 3 });
  }
  return declared;
}

/** A property path inside an object value, e.g. ['credential', 'response']. */
export type FieldPath = string[];

export interface Field {
  path: FieldPath;
  schema: JsonSchema;
  required: boolean;
}

/** Every declared field of an object schema, nested objects included (depth-limited). */
export function fieldsOf(js: JsonSchema, prefix: FieldPath = [], depth = 3): Field[] {
  if (depth === 0 || !js.properties) return [];
  return Object.entries(js.properties).flatMap(([name, property]) => {
    const field: Field = { path: [...prefix, name], schema: property, required: (js.required ?? []).includes(name) };
    return [field, ...fieldsOf(property, field.path, depth - 1)];
  });
}

/** The JSON types a field accepts (so a "wrong type" is really wrong). */
export function jsonTypesOf(js: JsonSchema): Set<string> {
  const alternatives = js.anyOf ?? js.oneOf;
  if (alternatives) return new Set(alternatives.flatMap((a) => [...jsonTypesOf(a)]));
  if (js.const !== undefined || js.enum) return new Set((js.enum ?? [js.const]).map(jsonTypeOf));
  if (js.type === undefined) return new Set(['string', 'number', 'boolean', 'null', 'array', 'object']);
  const types = Array.isArray(js.type) ? js.type : [js.type];
  return new Set(types.map((t) => (t === 'integer' ? 'number' : t)));
}

export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
