import type { z } from 'zod';
import { serviceError, type FieldError } from '@/lib/contract/errors';
import type { AnyOperation } from '@/lib/contract/operation';
import { findRefusedCharacter } from './input-hygiene';

const PAGINATION_KEYS = new Set(['limit', 'cursor']);

function fieldErrors(where: string, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message }));
}

function parsePart(where: string, schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) refuse(fieldErrors(where, parsed.error));
  return parsed.data;
}

function refuse(errors: FieldError[]): never {
  throw serviceError('invalid_request', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { extras: { errors } });
}

/**
 * Pipeline step 9: params, query and body, first for control characters and lone surrogates
 * (input-hygiene.ts), then through the operation's schemas; 400 with field errors.
 */
export function parseInput(op: AnyOperation, rawParams: Record<string, string>, search: URLSearchParams, body: unknown) {
  const refused = findRefusedCharacter({ params: rawParams, query: search, body });
  if (refused) refuse([refused]);
  // Collections own limit/cursor (invalid_pagination); they are not part of the query schema.
  // Object.fromEntries defines every key as an own property: an assignment would turn `__proto__`
  // into a prototype change and the parameter would vanish before a strict schema could refuse it.
  const rawQuery: Record<string, string> = Object.fromEntries([...search].filter(([key]) => !(op.kind === 'collection' && PAGINATION_KEYS.has(key))));
  return {
    params: parsePart('params', op.params, rawParams),
    query: parsePart('query', op.query, rawQuery),
    body: op.kind === 'resource' ? parsePart('body', op.body, body ?? {}) : undefined,
  };
}
