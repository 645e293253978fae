/** The one UUID rule: what it accepts, what it refuses, and that schemas and `isUuid` agree. */
import { describe, expect, it } from 'vitest';
import { isUuid, uuid } from './ids';

const ACCEPTED = [
  '00000000-0000-4000-8000-000000000000',
  'FBFC3007-154E-4ECC-8C0B-6E020557D7BD',
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];
const REFUSED = [
  '',
  'not-a-uuid',
  // Hex in the right places, but no RFC 9562 version or variant: no id this service issues looks so.
  '00000000-0000-0000-0000-000000000001',
  'fbfc3007-154e-0ecc-8c0b-6e020557d7bd',
  'fbfc3007-154e-4ecc-7c0b-6e020557d7bd',
  // Shapes PostgreSQL would also read as a uuid, which the API never documents.
  'fbfc3007154e4ecc8c0b6e020557d7bd',
  '{fbfc3007-154e-4ecc-8c0b-6e020557d7bd}',
  ' fbfc3007-154e-4ecc-8c0b-6e020557d7bd',
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd\n',
];

describe('the UUID rule', () => {
  it('accepts UUIDs in either case, the nil and the max UUID', () => {
    for (const value of ACCEPTED) expect(isUuid(value), value).toBe(true);
  });

  it('refuses anything else', () => {
    for (const value of REFUSED) expect(isUuid(value), JSON.stringify(value)).toBe(false);
  });

  it('is the same rule in declarations and in code', () => {
    for (const value of [...ACCEPTED, ...REFUSED]) expect(uuid().safeParse(value).success, JSON.stringify(value)).toBe(isUuid(value));
  });
});
