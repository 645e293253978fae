/**
 * A draft is one request before credentials are added: path parameters, query, body, header
 * overrides. Drafts start valid-looking, filled from the operation's carriers (where it takes
 * structured input), and a bad-input class changes one thing in them (bad-inputs.ts).
 */
import fc from 'fast-check';
import type { z } from 'zod';
import type { AnyOperation } from '@/lib/contract/operation';
import { DEFAULT_MAX_BODY_BYTES } from '@/lib/http/body';
import { protocolCores, protocolSchema, type ProtocolFixtures } from './protocol-parameters';
import { inputSchemaOf, valueArbitrary, type FieldPath, type JsonSchema } from './schema-arbitrary';

export type Json = Record<string, unknown>;
export type Encoding = 'json' | 'form';

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
export interface Carrier {
  where: 'query' | 'body';
  schema: JsonSchema;
  encodings: Encoding[];
  base: fc.Arbitrary<Json>;
  /** Only values the judge accepts (the base itself where there is no judge). */
  accepted: fc.Arbitrary<Json>;
  /** The operation's own schema as a judge (absent for protocol parameters, which the provider judges). */
  accepts?: (value: Json) => boolean;
}

export interface OperationInputs {
  op: AnyOperation;
  carriers: Carrier[];
  params: fc.Arbitrary<Record<string, string>>;
  bodyLimit: number;
}

export const pathParamNames = (op: AnyOperation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/**
 * `realParams`: path parameters naming resources that exist (an organization the credentials act in,
 * and its members, groups ...), used as they are so the request gets past the tenant check to the
 * operation's own parsing and handler; otherwise they are drawn from the declared schema.
 */
export function inputsOf(op: AnyOperation, protocol: ProtocolFixtures, realParams?: Record<string, string>): OperationInputs {
  const carriers: Carrier[] = [];
  // Mostly values the operation's own schema accepts (refinements such as a time zone are invisible in
  // JSON Schema), so that the one break is what the service sees; sometimes whatever was drawn.
  const ownCarrier = (where: Carrier['where'], schema: z.ZodType, encodings: Encoding[]): Carrier => {
    const accepts = (value: Json) => schema.safeParse(value).success;
    const drawn = valueArbitrary(inputSchemaOf(schema)) as fc.Arbitrary<Json>;
    const accepted = drawn.filter(accepts);
    return {
      where,
      schema: inputSchemaOf(schema),
      encodings,
      accepts,
      accepted,
      base: fc.oneof({ weight: 3, arbitrary: accepted }, { weight: 1, arbitrary: drawn }),
    };
  };
  if (op.kind === 'delegated') {
    // The provider's protocol parameters: query for GET, a form (or JSON, which some endpoints take) otherwise.
    const schema = protocolSchema(protocol);
    const base = fc.oneof(fc.constantFrom(...protocolCores(protocol)), valueArbitrary(schema) as fc.Arbitrary<Json>);
    carriers.push({ where: op.method === 'GET' ? 'query' : 'body', schema, encodings: ['form', 'json'], base, accepted: base });
  } else {
    if (op.query) carriers.push(ownCarrier('query', op.query, ['form']));
    if (op.kind === 'resource' && op.body) carriers.push(ownCarrier('body', op.body, op.acceptsForm ? ['json', 'form'] : ['json']));
  }
  const declaredParams = op.params ? inputSchemaOf(op.params) : null;
  const params = realParams
    ? fc.constant(realParams)
    : fc.record(
        Object.fromEntries(
          pathParamNames(op).map((name) => {
            const schema = declaredParams?.properties?.[name];
            return [name, schema ? (valueArbitrary(schema) as fc.Arbitrary<string>) : fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/)];
          }),
        ),
      );
  return { op, carriers, params, bodyLimit: op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Sets a property as an own, enumerable one (so `__proto__` really is sent as a key). */
function define(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

export function setAt(root: Json, path: FieldPath, value: unknown): Json {
  const copy = clone(root);
  let node: Json = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) define(node, key, {});
    node = node[key] as Json;
  }
  define(node, path.at(-1)!, value);
  return copy;
}

export function deleteAt(root: Json, path: FieldPath): Json {
  const copy = clone(root);
  let node: Json | undefined = copy;
  for (const key of path.slice(0, -1)) node = node?.[key] as Json | undefined;
  if (node && typeof node === 'object') delete node[path.at(-1)!];
  return copy;
}

export function getAt(root: Json, path: FieldPath): unknown {
  let node: unknown = root;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Json)[key] : undefined;
  return node;
}

export const describePath = (path: FieldPath) => path.join('.');

/**
 * A valid-looking request: every carrier filled, the body encoded one of the ways the operation takes;
 * `onlyAccepted`: with values the operation's own schemas accept.
 */
export function validDraft(inputs: OperationInputs, onlyAccepted = false): fc.Arbitrary<Draft> {
  const query = inputs.carriers.find((c) => c.where === 'query');
  const body = inputs.carriers.find((c) => c.where === 'body');
  const value = (carrier: Carrier) => (onlyAccepted ? carrier.accepted : carrier.base);
  return fc
    .record({
      params: inputs.params,
      query: query ? value(query) : fc.constant({}),
      body: body ? value(body) : fc.constant(undefined),
      encoding: fc.constantFrom(...(body?.encodings ?? ['json' as const])),
      // A fresh key where the operation takes one, so a break reaches the handler, not the key check.
      key: fc.uuid(),
    })
    .map(({ params, query: q, body: b, encoding, key }): Draft => ({
      note: 'valid-looking request',
      params,
      query: q,
      body: b === undefined ? undefined : { value: b, encoding },
      headers: inputs.op.idempotency === 'none' ? {} : { 'idempotency-key': key },
    }));
}

/** Applies `change` to one carrier's value. */
export function onCarrier(carrier: Carrier, change: (value: Json) => { value: unknown; note: string }) {
  return (draft: Draft): Draft => {
    const current = carrier.where === 'query' ? draft.query : ((draft.body as { value?: unknown } | undefined)?.value as Json);
    const { value, note } = change(current ?? {});
    if (carrier.where === 'query') return { ...draft, note: `query: ${note}`, query: value as Json };
    const encoding = (draft.body as { encoding?: Encoding } | undefined)?.encoding ?? carrier.encodings[0]!;
    return { ...draft, note: `body (${encoding}): ${note}`, body: { value, encoding } };
  };
}

export function carrierArbitrary(
  inputs: OperationInputs,
  make: (carrier: Carrier) => fc.Arbitrary<(draft: Draft) => Draft> | null,
  onlyAccepted = false,
): fc.Arbitrary<Draft> | null {
  const options = inputs.carriers.map(make).filter((a): a is fc.Arbitrary<(draft: Draft) => Draft> => a !== null);
  if (options.length === 0) return null;
  return fc.tuple(validDraft(inputs, onlyAccepted), fc.oneof(...options)).map(([draft, change]) => change(draft));
}
