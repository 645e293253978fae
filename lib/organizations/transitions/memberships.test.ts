/** The membership table row by row: each move it allows, the owner rule, and every move it refuses. */
import { describe, expect, it } from 'vitest';
import { expectWellFormed, outcomeOf, walk, type Outcome } from '@/tests/helpers/transition-tables';
import { MEMBER_UPDATE_EVENTS, MEMBERSHIP_TRANSITIONS, type MembershipFacts, type MembershipState, type OwnerFacts } from './memberships';
import { decide, transitionFor, unlistedPairs } from './table';

/** A plain member: the owner rule has nothing to say, and asking it the count would be a bug. */
const member: OwnerFacts = {
  target: { role: 'member' },
  otherActiveOwners: async () => {
    throw new Error('the owner count is read only when an owner stops being one');
  },
};
const owner = (others: number): OwnerFacts => ({ target: { role: 'owner' }, otherActiveOwners: async () => others });

const PASSING: MembershipFacts = {
  found: {},
  join: {},
  suspend: member,
  reactivate: {},
  change_role: { ...member, newRole: 'admin' },
  revoke: member,
};

const conflict = (detail: string): Outcome => ({ refused: { status: 409, code: 'conflict', detail, extras: {} } });
const NO_SUCH = { refused: { status: 404, code: 'not_found', detail: 'No such member in this organization.', extras: {} } };
const WAS_REVOKED = conflict('This membership was revoked; invite the person again instead.');
const FOUNDED = conflict('This person is already a member of this organization.');
const LAST_OWNER = conflict('The organization must keep at least one active owner: make someone else an owner first.');

describe('the membership transition table', () => {
  it('has one row per state and event', () => {
    expectWellFormed(MEMBERSHIP_TRANSITIONS);
  });

  it('decides every state and event: the listed moves when their guards hold, a refusal for each other pair', async () => {
    expect(await walk(MEMBERSHIP_TRANSITIONS, PASSING)).toEqual({
      'none found': { to: 'active' },
      'none join': { to: 'active' },
      'none suspend': NO_SUCH,
      'none reactivate': NO_SUCH,
      'none change_role': NO_SUCH,
      'none revoke': NO_SUCH,
      'active found': FOUNDED,
      'active join': conflict('You are already a member of this organization.'),
      'active suspend': { to: 'suspended' },
      'active reactivate': { to: 'active' },
      'active change_role': { to: 'active' },
      'active revoke': { to: 'revoked' },
      'suspended found': FOUNDED,
      'suspended join': conflict('Your membership of this organization is suspended; an invitation does not lift a suspension.'),
      'suspended suspend': { to: 'suspended' },
      'suspended reactivate': { to: 'active' },
      'suspended change_role': { to: 'suspended' },
      'suspended revoke': { to: 'revoked' },
      'revoked found': FOUNDED,
      'revoked join': { to: 'active' },
      'revoked suspend': WAS_REVOKED,
      'revoked reactivate': WAS_REVOKED,
      'revoked change_role': WAS_REVOKED,
      'revoked revoke': conflict('This membership is already revoked.'),
    });
    expect(unlistedPairs(MEMBERSHIP_TRANSITIONS)).toHaveLength(24 - 11);
  });

  it('keeps an active owner unless another active owner remains, and only when they stop being one', async () => {
    const outcome = <E extends 'suspend' | 'change_role' | 'revoke'>(state: MembershipState, event: E, facts: MembershipFacts[E]) =>
      outcomeOf(decide(MEMBERSHIP_TRANSITIONS, state, event, facts));
    expect(await outcome('active', 'suspend', owner(0))).toEqual(LAST_OWNER);
    expect(await outcome('active', 'suspend', owner(1))).toEqual({ to: 'suspended' });
    expect(await outcome('active', 'revoke', owner(0))).toEqual(LAST_OWNER);
    expect(await outcome('active', 'revoke', owner(2))).toEqual({ to: 'revoked' });
    expect(await outcome('active', 'change_role', { ...owner(0), newRole: 'admin' })).toEqual(LAST_OWNER);
    expect(await outcome('active', 'change_role', { ...owner(1), newRole: 'custom' })).toEqual({ to: 'active' });
    // Staying an owner, or not being an active one, leaves the count unasked.
    const uncounted = { target: { role: 'owner' as const }, otherActiveOwners: member.otherActiveOwners };
    expect(await outcome('active', 'change_role', { ...uncounted, newRole: 'owner' })).toEqual({ to: 'active' });
    expect(await outcome('suspended', 'change_role', { ...uncounted, newRole: 'member' })).toEqual({ to: 'suspended' });
    expect(await outcome('suspended', 'suspend', uncounted)).toEqual({ to: 'suspended' });
    expect(await outcome('suspended', 'revoke', uncounted)).toEqual({ to: 'revoked' });
  });

  it('gates and ends access on the moves that take it away, and names what each move records', () => {
    const effects = (state: MembershipState, event: keyof MembershipFacts) => transitionFor(MEMBERSHIP_TRANSITIONS, state, event).effects;
    const updated = { gate: null, ends: null, audit: 'member.updated', emits: ['identity.organization.member.updated'] };
    const removed = { gate: 'members.remove', ends: 'revoked', audit: 'member.revoked', emits: ['identity.organization.member.removed'] };
    expect(effects('none', 'found')).toEqual({ gate: null, ends: null, audit: null, emits: [] });
    expect(effects('none', 'join')).toEqual({ gate: null, ends: null, audit: null, emits: ['identity.organization.member.added'] });
    expect(effects('revoked', 'join')).toEqual(effects('none', 'join'));
    expect(effects('active', 'suspend')).toEqual({ ...updated, gate: 'members.suspend', ends: 'suspended' });
    expect(effects('suspended', 'suspend')).toEqual(updated);
    expect(effects('suspended', 'reactivate')).toEqual(updated);
    expect(effects('active', 'reactivate')).toEqual(updated);
    expect(effects('active', 'change_role')).toEqual(updated);
    expect(effects('suspended', 'change_role')).toEqual(updated);
    expect(effects('active', 'revoke')).toEqual(removed);
    expect(effects('suspended', 'revoke')).toEqual(removed);
  });

  it('records one PATCH of a member once: its events all name the same record', () => {
    const records = MEMBERSHIP_TRANSITIONS.rows
      .filter((row) => (MEMBER_UPDATE_EVENTS as readonly string[]).includes(row.event))
      .map((row) => ({ audit: row.effects.audit, emits: row.effects.emits }));
    expect(records.length).toBeGreaterThan(0);
    expect(new Set(records.map((record) => JSON.stringify(record)))).toEqual(new Set([JSON.stringify(records[0])]));
  });
});
