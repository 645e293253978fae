/** The domain table row by row: each move it allows, each guard's refusal, and every move it refuses. */
import { describe, expect, it } from 'vitest';
import { decide, unlistedPairs } from '@/lib/organizations';
import { expectWellFormed, outcomeOf, walk, type Outcome } from '@/tests/helpers/transition-tables';
import { DOMAIN_TRANSITIONS, type DomainFacts } from './transitions';

const PASSING: DomainFacts = {
  register: { verifiedElsewhere: false },
  verify: { proof: { proven: true }, verifiedElsewhere: false },
  delete: { activeConnections: 0 },
};

const conflict = (detail: string): Outcome => ({ refused: { status: 409, code: 'conflict', detail, extras: {} } });
const NO_SUCH: Outcome = { refused: { status: 404, code: 'not_found', detail: 'No such domain in this organization.', extras: {} } };
const WINDOW = conflict("This domain's verification window of 7 days has passed; delete it and register it again for a new record.");

describe('the domain transition table', () => {
  it('has one row per state and event', () => {
    expectWellFormed(DOMAIN_TRANSITIONS);
  });

  it('decides every state and event', async () => {
    expect(await walk(DOMAIN_TRANSITIONS, PASSING)).toEqual({
      'none register': { to: 'pending' },
      'none verify': NO_SUCH,
      'none delete': NO_SUCH,
      'pending register': conflict('This organization has already registered this domain (pending).'),
      'pending verify': { to: 'verified' },
      'pending delete': { to: 'none' },
      'failed register': conflict('This organization has already registered this domain (failed).'),
      'failed verify': WINDOW,
      'failed delete': { to: 'none' },
      'verified register': conflict('This organization has already registered this domain (verified).'),
      'verified verify': { to: 'verified' },
      'verified delete': { to: 'none' },
    });
    expect(unlistedPairs(DOMAIN_TRANSITIONS)).toHaveLength(12 - 6);
  });

  it('refuses a verification without the record, saying what was found, and a name another organization holds', async () => {
    const verify = (facts: DomainFacts['verify']) => outcomeOf(decide(DOMAIN_TRANSITIONS, 'pending', 'verify', facts));
    expect(await verify({ proof: { proven: false, reason: 'other_values', found: ['x'] }, verifiedElsewhere: true })).toEqual({
      refused: {
        status: 422,
        code: 'domain_verification_failed',
        detail: 'TXT records were found at the name, but none holds the expected value. Publish the record and verify again.',
        extras: { reason: 'other_values', found: ['x'] },
      },
    });
    expect(await verify({ proof: { proven: true }, verifiedElsewhere: true })).toEqual(conflict('This domain is verified by another organization.'));
    expect(await outcomeOf(decide(DOMAIN_TRANSITIONS, 'none', 'register', { verifiedElsewhere: true }))).toEqual(
      conflict('This domain is verified by another organization.'),
    );
  });

  it('keeps a domain an active connection relies on', async () => {
    expect(await outcomeOf(decide(DOMAIN_TRANSITIONS, 'verified', 'delete', { activeConnections: 2 }))).toEqual(
      conflict('2 active federation connection(s) rely on this domain; disable them first.'),
    );
  });
});
