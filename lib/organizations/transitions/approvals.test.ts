/** The approval table row by row: each move it allows, separation of duties, one use, and every move it refuses. */
import { describe, expect, it } from 'vitest';
import { expectWellFormed, outcomeOf, walk, type Outcome } from '@/tests/helpers/transition-tables';
import { APPROVAL_TRANSITIONS, approvalStatus, type ApprovalFacts, type ApprovalState } from './approvals';
import { decide, onlyRowOf, transitionFor, unlistedPairs } from './table';

const NOW = new Date('2026-11-22T10:00:00Z');
const LATER = new Date('2026-11-23T10:00:00Z');
const approval = { action: 'policies.delete', target: 'session.binding', consumedAt: null, expiresAt: LATER };

const PASSING: ApprovalFacts = {
  request: {},
  approve: { byRequester: false, empowersDecider: false },
  reject: { byRequester: false },
  cancel: { byRequester: true },
  consume: { approval, now: NOW },
};

const decided = (state: string): Outcome => ({
  refused: { status: 409, code: 'conflict', detail: `This approval was already decided (${state}).`, extras: { approval_status: state } },
});
const EXPIRED: Outcome = { refused: { status: 409, code: 'conflict', detail: 'This approval has expired.', extras: { approval_status: 'expired' } } };
const NO_SUCH: Outcome = { refused: { status: 404, code: 'not_found', detail: 'No such approval.', extras: {} } };
const NOT_USABLE: Outcome = {
  refused: {
    status: 403,
    code: 'approval_required',
    detail: 'The approval is not approved, was already used, or has expired.',
    extras: { approval: { action: 'policies.delete', target: 'session.binding' } },
  },
};
const requested = (state: string): Outcome => ({
  refused: { status: 409, code: 'conflict', detail: `This approval was already requested (${state}).`, extras: {} },
});
const separation = (detail: string): Outcome => ({ refused: { status: 403, code: 'forbidden', detail, extras: { reason: 'separation_of_duties' } } });
const NOT_ANOTHER = separation(
  'Separation of duties: an approval is decided by another admin than its requester, and never approved by the member it would empower.',
);

describe('the approval transition table', () => {
  it('has one row per state and event', () => {
    expectWellFormed(APPROVAL_TRANSITIONS);
  });

  it('decides every state and event: the listed moves when their guards hold, a refusal for each other pair', async () => {
    expect(await walk(APPROVAL_TRANSITIONS, PASSING)).toEqual({
      'none request': { to: 'requested' },
      'none approve': NO_SUCH,
      'none reject': NO_SUCH,
      'none cancel': NO_SUCH,
      'none consume': NOT_USABLE,
      'requested request': requested('requested'),
      'requested approve': { to: 'approved' },
      'requested reject': { to: 'rejected' },
      'requested cancel': { to: 'cancelled' },
      'requested consume': NOT_USABLE,
      'approved request': requested('approved'),
      'approved approve': decided('approved'),
      'approved reject': decided('approved'),
      'approved cancel': decided('approved'),
      'approved consume': { to: 'approved' },
      'rejected request': requested('rejected'),
      'rejected approve': decided('rejected'),
      'rejected reject': decided('rejected'),
      'rejected cancel': decided('rejected'),
      'rejected consume': NOT_USABLE,
      'cancelled request': requested('cancelled'),
      'cancelled approve': decided('cancelled'),
      'cancelled reject': decided('cancelled'),
      'cancelled cancel': decided('cancelled'),
      'cancelled consume': NOT_USABLE,
      'expired request': requested('expired'),
      'expired approve': EXPIRED,
      'expired reject': EXPIRED,
      'expired cancel': EXPIRED,
      'expired consume': NOT_USABLE,
    });
    expect(unlistedPairs(APPROVAL_TRANSITIONS)).toHaveLength(30 - 5);
  });

  it('keeps duties apart: the requester never decides, only the requester cancels, nobody approves their own grant', async () => {
    const outcome = <E extends 'approve' | 'reject' | 'cancel'>(event: E, facts: ApprovalFacts[E]) =>
      outcomeOf(decide(APPROVAL_TRANSITIONS, 'requested', event, facts));
    expect(await outcome('approve', { byRequester: true, empowersDecider: false })).toEqual(NOT_ANOTHER);
    expect(await outcome('approve', { byRequester: false, empowersDecider: true })).toEqual(NOT_ANOTHER);
    expect(await outcome('reject', { byRequester: true })).toEqual(NOT_ANOTHER);
    expect(await outcome('cancel', { byRequester: false })).toEqual(separation('Only the admin who requested this approval may cancel it.'));
    // The member a grant would empower may still reject it.
    expect(await outcome('reject', { byRequester: false, empowersDecider: true } as ApprovalFacts['reject'])).toEqual({ to: 'rejected' });
  });

  it('lets an approved approval through once, before it expires', async () => {
    const use = (facts: ApprovalFacts['consume']) => outcomeOf(decide(APPROVAL_TRANSITIONS, 'approved', 'consume', facts));
    expect(await use({ approval: { ...approval, consumedAt: NOW }, now: NOW })).toEqual(NOT_USABLE);
    expect(await use({ approval: { ...approval, expiresAt: NOW }, now: NOW })).toEqual(NOT_USABLE);
    expect(await use({ approval, now: NOW })).toEqual({ to: 'approved' });
  });

  it('decides from requested only, the state the conditional write checks, and names what each move records', () => {
    for (const decision of ['approve', 'reject', 'cancel'] as const) expect(onlyRowOf(APPROVAL_TRANSITIONS, decision).from).toEqual(['requested']);
    const audit = (state: ApprovalState, event: keyof ApprovalFacts) => transitionFor(APPROVAL_TRANSITIONS, state, event).effects.audit;
    expect(audit('none', 'request')).toBe('approval.requested');
    expect(audit('requested', 'approve')).toBe('approval.decided');
    expect(audit('requested', 'reject')).toBe('approval.decided');
    expect(audit('requested', 'cancel')).toBe('approval.cancelled');
    expect(audit('approved', 'consume')).toBe('approval.consumed');
  });

  it('reads a requested approval past its expiry as expired, and nothing else', () => {
    expect(approvalStatus({ status: 'requested', expiresAt: NOW }, NOW)).toBe('expired');
    expect(approvalStatus({ status: 'requested', expiresAt: LATER }, NOW)).toBe('requested');
    expect(approvalStatus({ status: 'approved', expiresAt: NOW }, NOW)).toBe('approved');
  });
});
