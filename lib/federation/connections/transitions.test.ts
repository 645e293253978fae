/** The connection table row by row: each move it allows, each guard's refusal, and every move it refuses. */
import { describe, expect, it } from 'vitest';
import { decide, unlistedPairs } from '@/lib/organizations';
import { expectWellFormed, outcomeOf, walk, type Outcome } from '@/tests/helpers/transition-tables';
import { CONNECTION_TRANSITIONS, type ConnectionFacts } from './transitions';

const PASSING: ConnectionFacts = {
  register: { unverifiedDomains: [] },
  activate: { unverifiedDomains: [], provider: { ok: true, saml: null } },
  disable: {},
  delete: {},
};

const conflict = (detail: string): Outcome => ({ refused: { status: 409, code: 'conflict', detail, extras: {} } });
const NO_SUCH: Outcome = { refused: { status: 404, code: 'not_found', detail: 'No such federation connection in this organization.', extras: {} } };
const notDeleted = (state: string) => conflict(`This connection is ${state}; only a disabled connection can be deleted.`);
const TAKEN = conflict('A connection with this connection_id exists.');

describe('the federation connection transition table', () => {
  it('has one row per state and event', () => {
    expectWellFormed(CONNECTION_TRANSITIONS);
  });

  it('decides every state and event (spec: registered -> active -> disabled -> removed)', async () => {
    expect(await walk(CONNECTION_TRANSITIONS, PASSING)).toEqual({
      'none register': { to: 'registered' },
      'none activate': NO_SUCH,
      'none disable': NO_SUCH,
      'none delete': NO_SUCH,
      'registered register': TAKEN,
      'registered activate': { to: 'active' },
      'registered disable': { to: 'disabled' },
      'registered delete': notDeleted('registered'),
      'active register': TAKEN,
      'active activate': { to: 'active' },
      'active disable': { to: 'disabled' },
      'active delete': notDeleted('active'),
      'disabled register': TAKEN,
      'disabled activate': { to: 'active' },
      'disabled disable': { to: 'disabled' },
      'disabled delete': { to: 'none' },
    });
    expect(unlistedPairs(CONNECTION_TRANSITIONS)).toHaveLength(16 - 8);
  });

  it('activates only when every domain is still verified and then only when the provider validates', async () => {
    const activate = (facts: ConnectionFacts['activate']) => outcomeOf(decide(CONNECTION_TRANSITIONS, 'registered', 'activate', facts));
    const unverified = await activate({ unverifiedDomains: ['corp.test'], provider: { ok: false, classification: 'issuer_mismatch' } });
    expect(unverified).toMatchObject({ refused: { status: 400, code: 'invalid_request' } });
    expect(await activate({ unverifiedDomains: [], provider: { ok: false, classification: 'issuer_mismatch' } })).toEqual({
      refused: {
        status: 422,
        code: 'federation_validation_failed',
        detail: 'The identity provider did not pass validation (issuer_mismatch).',
        extras: { classification: 'issuer_mismatch' },
      },
    });
  });
});
