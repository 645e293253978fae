import type { z } from 'zod';
import { serviceError, type FieldError } from '@/lib/contract/errors';
import type { AnyOperation } from '@/lib/contract/operation';

const PAGINATION_KEYS = new Set(['limit', 'cursor']);

function fieldErrors(where: string, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message }));
}

function parsePart(where: string, schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const errors = fieldErrors(where, parsed.error);
    throw serviceError('invalid_request', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { extras: { errors } });
  }
  return parsed.data;
}

/** Pipeline step 9: params, query and body through the operation's schemas; 400 with field errors. */
export function parseInput(op: AnyOperation, rawParams: Record<string, string>, search: URLSearchParams, body: unknown) {
  const rawQuery: Record<string, string> = {};
  for (const [key, value] of search) {
    // Collections own limit/cursor (invalid_pagination); they are not part of the query schema.
    if (op.kind === 'collection' && PAGINATION_KEYS.has(key)) continue;
    rawQuery[key] = value;
  }
  return {
    params: parsePart('params', op.params, rawParams),
    query: parsePart('query', op.query, rawQuery),
    body: op.kind === 'resource' ? parsePart('body', op.body, body ?? {}) : undefined,
  };
}
