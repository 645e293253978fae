/**
 * A membership's life in one table; `none` is a person's state before they belong to the
 * organization. The owner rules that depend on the data are guards: the last active owner is never
 * demoted, suspended or removed (the caller reads the count under the organization's row lock). Who
 * may touch an owner at all is decided before any move (members.ts).
 *
 * | from               | event       | guards                                   | to        | effects                                  |
 * |--------------------|-------------|------------------------------------------|-----------|------------------------------------------|
 * | none               | found       | -                                        | active    | (the organization's creation)            |
 * | none / revoked     | join        | -                                        | active    | event member.added                       |
 * | active             | suspend     | another active owner (target an owner)   | suspended | gate members.suspend, access ends; audit |
 * | suspended          | suspend     | -                                        | suspended | audit                                    |
 * | active / suspended | reactivate  | -                                        | active    | audit                                    |
 * | active             | change_role | another active owner (owner demoted)     | active    | audit                                    |
 * | suspended          | change_role | -                                        | suspended | audit                                    |
 * | active             | revoke      | another active owner (target an owner)   | revoked   | gate members.remove, access ends; audit  |
 * | suspended          | revoke      | -                                        | revoked   | gate members.remove, access ends; audit  |
 *
 * A revoked membership only comes back through an invitation (`join`); a suspended one is never
 * lifted by an invitation. Any other move is 409, and a move of a membership that does not exist 404.
 */
import type { AuditAction } from '@/lib/audit';
import type { GatedChange } from '@/lib/contract/approvals';
import { serviceError } from '@/lib/contract/errors';
import type { EventType } from '@/lib/contract/events';
import type { MembershipRole, MembershipStatus } from '../members/members.repo';
import type { Guard, TransitionTable } from './table';

export type MembershipState = 'none' | MembershipStatus;

/** What the owner rule reads: the target's role, and (asked only when it matters) the other active owners. */
export interface OwnerFacts {
  target: { role: MembershipRole };
  otherActiveOwners: () => Promise<number>;
}

export interface MembershipFacts {
  found: Record<string, never>;
  join: Record<string, never>;
  suspend: OwnerFacts;
  reactivate: Record<string, never>;
  change_role: OwnerFacts & { newRole: MembershipRole };
  revoke: OwnerFacts;
}

export interface MembershipEffects {
  /** The approval policy entry the move passes (approval-gate.ts), inside its transaction. */
  gate: Extract<GatedChange, 'members.suspend' | 'members.remove'> | null;
  /** The membership stops being active: what the person held through the organization ends (membership-ended.ts). */
  ends: 'suspended' | 'revoked' | null;
  /** Recorded by the move; null: the change that makes it records itself (an accepted invitation, a new organization). */
  audit: Extract<AuditAction, `member.${string}`> | null;
  emits: readonly EventType[];
}

const lastOwner = () => serviceError('conflict', 'The organization must keep at least one active owner: make someone else an owner first.');

/** An active owner who stops being one (as `stops` says) leaves another active owner behind. */
function anotherActiveOwner<F extends OwnerFacts>(says: string, stops: (facts: F) => boolean): Guard<F> {
  return { says, holds: async (facts) => !stops(facts) || (await facts.otherActiveOwners()) > 0, refusal: lastOwner };
}

const ownerLeaves = anotherActiveOwner<OwnerFacts>('another active owner remains (the target is an owner)', (facts) => facts.target.role === 'owner');
const ownerDemoted = anotherActiveOwner<MembershipFacts['change_role']>(
  'another active owner remains (an owner is given another role)',
  (facts) => facts.target.role === 'owner' && facts.newRole !== 'owner',
);

const UPDATED = { gate: null, ends: null, audit: 'member.updated', emits: ['identity.organization.member.updated'] } as const;
const REVOKED = { gate: 'members.remove', ends: 'revoked', audit: 'member.revoked', emits: ['identity.organization.member.removed'] } as const;

/** The events of one PATCH of a member: one change, recorded once (their rows name the same record). */
export const MEMBER_UPDATE_EVENTS = ['suspend', 'reactivate', 'change_role'] as const;

export const MEMBERSHIP_TRANSITIONS: TransitionTable<MembershipState, MembershipStatus, MembershipFacts, MembershipEffects> = {
  states: ['none', 'active', 'suspended', 'revoked'],
  events: ['found', 'join', 'suspend', 'reactivate', 'change_role', 'revoke'],
  rows: [
    { from: ['none'], event: 'found', guards: [], to: 'active', effects: { gate: null, ends: null, audit: null, emits: [] } },
    {
      from: ['none', 'revoked'],
      event: 'join',
      guards: [],
      to: 'active',
      effects: { gate: null, ends: null, audit: null, emits: ['identity.organization.member.added'] },
    },
    // Suspending ends the member's access as removing does: gated alike.
    { from: ['active'], event: 'suspend', guards: [ownerLeaves], to: 'suspended', effects: { ...UPDATED, gate: 'members.suspend', ends: 'suspended' } },
    { from: ['suspended'], event: 'suspend', guards: [], to: 'suspended', effects: UPDATED },
    { from: ['active', 'suspended'], event: 'reactivate', guards: [], to: 'active', effects: UPDATED },
    { from: ['active'], event: 'change_role', guards: [ownerDemoted], to: 'active', effects: UPDATED },
    { from: ['suspended'], event: 'change_role', guards: [], to: 'suspended', effects: UPDATED },
    { from: ['active'], event: 'revoke', guards: [ownerLeaves], to: 'revoked', effects: REVOKED },
    { from: ['suspended'], event: 'revoke', guards: [], to: 'revoked', effects: REVOKED },
  ],
  unlisted: (state, event) => {
    if (state === 'none') return serviceError('not_found', 'No such member in this organization.');
    switch (event) {
      case 'join':
        return state === 'active'
          ? serviceError('conflict', 'You are already a member of this organization.')
          : serviceError('conflict', 'Your membership of this organization is suspended; an invitation does not lift a suspension.');
      case 'revoke':
        return serviceError('conflict', 'This membership is already revoked.');
      case 'found':
        return serviceError('conflict', 'This person is already a member of this organization.');
      default:
        return serviceError('conflict', 'This membership was revoked; invite the person again instead.');
    }
  },
};
