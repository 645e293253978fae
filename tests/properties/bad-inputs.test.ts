/**
 * The generator checked against the schemas it reads, without the service: a bad-input class is only
 * worth its runs if its starting point is valid (so one break is what the service sees) and the break
 * really breaks. When a new operation's schema uses something schema-arbitrary.ts cannot satisfy,
 * this says which operation and part.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AnyOperation } from '@/lib/contract/operation';
import { OPERATIONS } from '@/lib/http/registry';
import { ORIGIN } from '../helpers/http';
import { badInputsFor } from './bad-inputs';
import { inputsOf, type Draft } from './drafts';
import { seedFor } from './run-property';
import { inputSchemaOf, valueArbitrary } from './schema-arbitrary';

const PROTOCOL = { baseUrl: ORIGIN, clientId: 'client', redirectUri: 'http://127.0.0.1/cb' };
const parts = (op: AnyOperation) =>
  (['params', 'query', 'body'] as const).flatMap((part) => {
    const schema = (op as { [k in typeof part]?: z.ZodType })[part];
    return schema ? [[part, schema] as const] : [];
  });
const samples = <T>(name: string, arbitrary: fc.Arbitrary<T>, numRuns = 60) => fc.sample(arbitrary, { numRuns, seed: seedFor(name) });
const withSchemas = OPERATIONS.filter((op) => parts(op).length > 0);

describe('valid-looking values', () => {
  it.each(withSchemas.map((op) => [op.id, op] as const))('%s: some generated input passes every schema of the operation', (name, op) => {
    for (const [part, schema] of parts(op)) {
      // 300 draws: a field whose JSON Schema cannot say all its rule (an e-mail address checked after
      // canonicalisation) is valid in only a few percent of them, and one valid value is all this asks.
      const accepted = samples(`${name}.${part}`, valueArbitrary(inputSchemaOf(schema)), 300).filter((value) => schema.safeParse(value).success);
      expect(accepted.length, `${name} ${part}: no generated value is valid`).toBeGreaterThan(0);
    }
  });
});

describe('breaks that must break', () => {
  const bodyOf = (draft: Draft) => (draft.body && 'value' in draft.body ? draft.body.value : undefined);
  /** Where the draft placed its break (an operation may carry input in its query and its body) and that part's schema. */
  const brokenPart = (op: AnyOperation, draft: Draft) =>
    draft.note.startsWith('query: ')
      ? { value: draft.query, schema: (op as { query: z.ZodType }).query }
      : { value: bodyOf(draft), schema: (op as { body: z.ZodType }).body };
  const withRequired = OPERATIONS.filter((op) => op.kind === 'resource' && op.body && (inputSchemaOf(op.body).required ?? []).length > 0);

  it.each(withRequired.map((op) => [op.id, op] as const))('%s: a missing or wrongly typed field is refused by its own schema', (name, op) => {
    const classes = badInputsFor(inputsOf(op, PROTOCOL), 43);
    for (const badInput of ['missing_field', 'wrong_type'] as const) {
      for (const draft of samples(`${name}.${badInput}`, classes.get(badInput)!, 30)) {
        const { value, schema } = brokenPart(op, draft);
        // A query of optional parameters only has nothing whose absence breaks it (dropping one is valid).
        if (badInput === 'missing_field' && (inputSchemaOf(schema).required ?? []).length === 0) continue;
        expect(schema.safeParse(value ?? {}).success, `${name} ${badInput}: ${draft.note}`).toBe(false);
      }
    }
  });

  it('sends oversized bodies over the limit in bytes (and one exactly at it)', () => {
    for (const op of OPERATIONS.filter((o) => o.method !== 'GET')) {
      const inputs = inputsOf(op, PROTOCOL);
      for (const draft of samples(`${op.id}.oversized_body`, badInputsFor(inputs, 43).get('oversized_body')!, 12)) {
        const bytes = Buffer.byteLength((draft.body as { text: string }).text);
        if (draft.note.startsWith('body exactly at')) expect(bytes, `${op.id}: ${draft.note}`).toBe(inputs.bodyLimit);
        else expect(bytes, `${op.id}: ${draft.note}`).toBeGreaterThan(inputs.bodyLimit);
      }
    }
  });

  const withBody = OPERATIONS.filter((op) => op.kind === 'resource' && op.body && badInputsFor(inputsOf(op, PROTOCOL), 43).has('nul_everywhere'));

  // Where no field lets a NUL through (an e-mail address), the schema already guards and nothing is sent.
  it.each(withBody.map((op) => [op.id, op] as const))('%s: the NUL it places gets past its own schema into the handler', (name, op) => {
    for (const draft of samples(`${name}.nul_everywhere`, badInputsFor(inputsOf(op, PROTOCOL), 43).get('nul_everywhere')!, 20)) {
      if (draft.note.endsWith('no field')) continue;
      const { value, schema } = brokenPart(op, draft);
      expect(JSON.stringify(value), `${name}: ${draft.note}`).toContain('\\u0000');
      expect(schema.safeParse(value).success, `${name}: ${draft.note}`).toBe(true);
    }
  });
});
