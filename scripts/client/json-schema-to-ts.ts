/**
 * TypeScript types from the JSON Schemas zod writes (z.toJSONSchema), for the subset the operation
 * contracts use: primitive types, nullable type lists, enums and constants, unions, arrays, closed
 * objects and records. Validation-only keywords (lengths, patterns, bounds) have no type and are
 * skipped; any other keyword fails the generation, so a new construct is noticed, never mistyped.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  [keyword: string]: unknown;
}

/** Keywords that constrain values but not their type. */
const VALIDATION_ONLY = new Set([
  '$schema',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'default',
  'title',
  'examples',
]);
const UNDERSTOOD = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'anyOf',
  'oneOf',
  'enum',
  'const',
  'description',
]);

const PRIMITIVES: Record<string, string> = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', null: 'null' };

/** The TypeScript type of `schema`; `where` names the schema in errors. */
export function typeOf(schema: JsonSchema, where: string): string {
  for (const keyword of Object.keys(schema)) {
    if (!UNDERSTOOD.has(keyword) && !VALIDATION_ONLY.has(keyword)) throw new Error(`${where}: the JSON Schema keyword "${keyword}" is not supported`);
  }
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return union(schema.enum.map(literal));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return union(alternatives.map((alternative, i) => typeOf(alternative, `${where}|${i}`)));
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => typeOf({ ...schema, type }, where)));
  switch (schema.type) {
    case undefined:
      if (schema.properties || schema.items) throw new Error(`${where}: a schema with members needs a type`);
      return 'unknown';
    case 'array':
      return arrayOf(schema.items ? typeOf(schema.items, `${where}[]`) : 'unknown');
    case 'object':
      return objectType(schema, where);
    default: {
      const primitive = PRIMITIVES[schema.type];
      if (!primitive) throw new Error(`${where}: the JSON Schema type "${schema.type}" is not supported`);
      return primitive;
    }
  }
}

/** The members of an object schema, one `name?: Type;` line each (with its description as JSDoc). */
export function membersOf(schema: JsonSchema, where: string): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const doc = property.description ? `/** ${property.description.replaceAll('*/', '* /')} */\n` : '';
    return `${doc}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, `${where}.${name}`)};`;
  });
}

function objectType(schema: JsonSchema, where: string): string {
  const extra = schema.additionalProperties;
  const open = extra !== undefined && extra !== false;
  const valueType = extra === true || extra === undefined || extra === false ? 'unknown' : typeOf(extra, `${where}{}`);
  if (!schema.properties) {
    if (!open) return 'Record<string, never>';
    // A record keyed by an enum names every key (zod marks each one required).
    const keys = schema.propertyNames?.enum;
    return `Record<${keys ? union(keys.map(literal)) : 'string'}, ${valueType}>`;
  }
  const members = membersOf(schema, where);
  if (open) members.push(`[key: string]: ${valueType};`);
  return members.length ? `{\n${members.join('\n')}\n}` : 'Record<string, never>';
}

function literal(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  throw new Error(`the constant ${JSON.stringify(value)} is not supported`);
}

function union(types: string[]): string {
  const distinct = [...new Set(types)];
  return distinct.length ? distinct.join(' | ') : 'never';
}

function arrayOf(type: string): string {
  return /^[\w.<>, ]+$/.test(type) && !type.includes(' | ') ? `${type}[]` : `Array<${type}>`;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
export const propertyKey = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
