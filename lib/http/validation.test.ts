import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { bindResource } from '@/lib/contract/operation';
import { resourceContract } from '@/lib/contract/wire';
import { parseInput } from './validation';

const strictQuery = bindResource(
  resourceContract({
    id: 'test_strict_query',
    method: 'GET',
    path: '/test/strict-query',
    tag: 'Test',
    summary: 'A strict query schema',
    auth: { kind: 'public' },
    origin: 'none',
    idempotency: 'none',
    query: z.strictObject({ q: z.string().optional() }),
    successStatus: 200,
    response: z.object({}),
    testOnly: true,
  }),
  async () => ({}),
);

describe('query parsing', () => {
  it('keeps every parameter name, so a strict schema refuses `__proto__` like any unknown one', () => {
    expect(() => parseInput(strictQuery, {}, new URLSearchParams('__proto__=x'), undefined)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => parseInput(strictQuery, {}, new URLSearchParams('constructor=x'), undefined)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(parseInput(strictQuery, {}, new URLSearchParams('q=x'), undefined).query).toEqual({ q: 'x' });
  });
});
