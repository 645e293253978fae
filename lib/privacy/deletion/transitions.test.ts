/** The deletion-request table row by row: each move it allows, the owner guard's refusal, and every move it refuses. */
import { describe, expect, it } from 'vitest';
import { decide, unlistedPairs } from '@/lib/organizations';
import { expectWellFormed, outcomeOf, walk, type Outcome } from '@/tests/helpers/transition-tables';
import { DELETION_TRANSITIONS, type DeletionFacts } from './transitions';

const PASSING: DeletionFacts = { request: {}, cancel: {}, complete: { blockers: [] } };
const refused = (status: number, code: string, detail: string): Outcome => ({ refused: { status, code, detail, extras: {} } });
const PENDING_ALREADY = refused(409, 'conflict', 'A deletion request is already pending: cancel it, or wait for it to be completed.');

describe('the deletion request transition table', () => {
  it('has one row per state and event', () => {
    expectWellFormed(DELETION_TRANSITIONS);
  });

  it('decides every state and event', async () => {
    expect(await walk(DELETION_TRANSITIONS, PASSING)).toEqual({
      'none request': { to: 'pending' },
      'none cancel': refused(404, 'not_found', 'No deletion request is pending.'),
      'none complete': refused(404, 'not_found', 'No deletion request is pending.'),
      'pending request': PENDING_ALREADY,
      'pending cancel': { to: 'cancelled' },
      'pending complete': { to: 'completed' },
      'cancelled request': refused(409, 'conflict', 'This deletion request is cancelled.'),
      'cancelled cancel': refused(404, 'not_found', 'This deletion request is cancelled.'),
      'cancelled complete': refused(404, 'not_found', 'This deletion request is cancelled.'),
      'completed request': refused(409, 'conflict', 'This deletion request is completed.'),
      'completed cancel': refused(404, 'not_found', 'This deletion request is completed.'),
      'completed complete': refused(404, 'not_found', 'This deletion request is completed.'),
    });
    expect(unlistedPairs(DELETION_TRANSITIONS)).toHaveLength(12 - 3);
  });

  it('refuses to complete while the person is an organization’s only owner, naming it', async () => {
    const blockers = [{ organization_id: 'org-1', organization_name: 'Acme', reason: 'sole_owner' as const }];
    expect(await outcomeOf(decide(DELETION_TRANSITIONS, 'pending', 'complete', { blockers }))).toEqual({
      refused: {
        status: 409,
        code: 'conflict',
        detail: 'The person is the only owner of “Acme”: another owner must be named, or the organization deleted, first.',
        extras: { blocked_by: blockers },
      },
    });
  });
});
