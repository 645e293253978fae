import { describe, expect, it } from 'vitest';
import { CONTRACTS } from './contracts';
import { OPERATIONS } from './registry';

/** The fields a caller relies on; a bound operation must carry its contract's, object for object. */
const WIRE_FIELDS = [
  'method',
  'path',
  'auth',
  'origin',
  'idempotency',
  'params',
  'query',
  'body',
  'response',
  'collection',
  'item',
  'successStatus',
  'tenant',
] as const;

describe('the contract catalogue', () => {
  const catalogued = new Map(Object.values(CONTRACTS).map((contract) => [contract.id, contract]));

  it('holds every registered operation, and a registered operation is its contract plus a handler', () => {
    const missing = OPERATIONS.filter((op) => !catalogued.has(op.id)).map((op) => op.id);
    expect(missing).toEqual([]);
    for (const op of OPERATIONS) {
      const contract = catalogued.get(op.id)!;
      for (const field of WIRE_FIELDS)
        expect((op as unknown as Record<string, unknown>)[field], `${op.id}.${field}`).toBe((contract as unknown as Record<string, unknown>)[field]);
    }
  });

  it('catalogues nothing the registry does not serve', () => {
    const served = new Set(OPERATIONS.map((op) => op.id));
    expect([...catalogued.keys()].filter((id) => !served.has(id))).toEqual([]);
  });
});
