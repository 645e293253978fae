/**
 * The TypeScript client's generated files (clients/typescript) against the operation registry: they are
 * current, they cover exactly the bearer operations of /api/v1, and the generator refuses what it
 * cannot type instead of guessing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '@/lib/http/registry';
import { OPERATION_DESCRIPTORS } from '@/clients/typescript/src/operations';
import { typeOf } from '@/scripts/client/json-schema-to-ts';
import { bearerOperations, methodName, renderClient, REPOSITORY } from '@/scripts/client/render-client';

const bearerRead = { method: 'GET', auth: { kind: 'bearer', accepts: ['api_key'], scopes: [] }, idempotency: 'none' } as const;

describe('the generated TypeScript client', () => {
  it('is up to date (run npm run client:generate)', async () => {
    const files = await renderClient();
    expect(Object.keys(files).sort()).toEqual(['clients/typescript/METHODS.md', 'clients/typescript/src/catalogue.ts', 'clients/typescript/src/operations.ts']);
    for (const [file, content] of Object.entries(files)) {
      expect(readFileSync(path.join(REPOSITORY, file), 'utf8'), file).toBe(content);
    }
  });

  it('has one method per bearer operation under /api/v1, with its declared method, path and idempotency', () => {
    const expected = OPERATIONS.filter((op) => op.auth.kind === 'bearer' && op.path.startsWith('/api/v1/'));
    expect(expected.length).toBeGreaterThan(10);
    const descriptors = Object.values(OPERATION_DESCRIPTORS);
    expect(descriptors.map((d) => d.id).sort()).toEqual(expected.map((op) => op.id).sort());
    for (const op of expected) {
      const descriptor = OPERATION_DESCRIPTORS[methodName(op.id) as keyof typeof OPERATION_DESCRIPTORS];
      expect(descriptor, op.id).toMatchObject({ id: op.id, method: op.method, path: op.path, idempotency: op.idempotency });
      expect('collection' in descriptor ? descriptor.collection : undefined, op.id).toBe(op.kind === 'collection' ? op.collection : undefined);
    }
    // Bearer operations outside the versioned API (userinfo, MCP) speak their own protocols.
    expect(descriptors.map((d) => d.path)).not.toContain('/oauth/userinfo');
    expect(descriptors.map((d) => d.path)).not.toContain('/mcp');
  });

  it('names methods by operation id without the word Bearer, and refuses two operations with one name', async () => {
    expect(methodName('listBearerApiKeys')).toBe('listApiKeys');
    expect(methodName('listOrganizationMembersBearer')).toBe('listOrganizationMembers');
    expect(methodName('getBoundOrganization')).toBe('getBoundOrganization');
    const twins = ['listBearerThings', 'listThingsBearer'].map((id) => ({ ...bearerRead, id, path: `/api/v1/${id}`, response: z.object({}) }));
    await expect(renderClient(twins)).rejects.toThrow(/listThings/);
  });

  it('leaves out operations that are not bearer ones', () => {
    const session = { ...bearerRead, id: 'mine', path: '/api/v1/mine', auth: { kind: 'session' } };
    const outside = { ...bearerRead, id: 'userinfo', path: '/oauth/userinfo' };
    expect(bearerOperations([session, outside])).toEqual([]);
  });

  it('refuses a query parameter that is not one value, and a path parameter without a schema', async () => {
    const listQuery = { ...bearerRead, id: 'tagged', path: '/api/v1/tagged', query: z.object({ tags: z.array(z.string()) }), response: z.object({}) };
    await expect(renderClient([listQuery])).rejects.toThrow(/query parameter tags/);
    const unnamed = { ...bearerRead, id: 'one', path: '/api/v1/things/{id}', response: z.object({}) };
    await expect(renderClient([unnamed])).rejects.toThrow(/path parameter \{id\}/);
  });
});

describe('JSON Schema to TypeScript', () => {
  const ts = (schema: z.ZodType, io: 'input' | 'output' = 'output') => typeOf(z.toJSONSchema(schema, { io }) as never, 'test').replace(/\s+/g, ' ');

  it('types the constructs the contracts use', () => {
    expect(ts(z.object({ a: z.string(), b: z.number().int().optional() }))).toBe('{ a: string; b?: number; }');
    expect(ts(z.string().nullable())).toBe('string | null');
    expect(ts(z.enum(['x', 'y']))).toBe('"x" | "y"');
    expect(ts(z.literal('only'))).toBe('"only"');
    expect(ts(z.array(z.object({ id: z.string() })))).toBe('Array<{ id: string; }>');
    expect(ts(z.array(z.string()))).toBe('string[]');
    expect(ts(z.record(z.string(), z.unknown()))).toBe('Record<string, unknown>');
    expect(ts(z.record(z.enum(['a', 'b']), z.boolean()))).toBe('Record<"a" | "b", boolean>');
    expect(ts(z.object({ n: z.string().describe('Shown once') }))).toBe('{ /** Shown once */ n: string; }');
    // A default makes the member optional for the caller, required in the answer.
    expect(ts(z.object({ limit: z.number().default(10) }), 'input')).toBe('{ limit?: number; }');
    expect(ts(z.object({ limit: z.number().default(10) }), 'output')).toBe('{ limit: number; }');
  });

  it('fails on a keyword it does not know instead of guessing', () => {
    expect(() => typeOf({ type: 'object', patternProperties: { '^x': { type: 'string' } } }, 'here')).toThrow(/here: .*patternProperties/);
    expect(() => typeOf({ allOf: [{ type: 'string' }] }, 'there')).toThrow(/allOf/);
  });
});
