/**
 * An invitation's life in one table. `expired` is computed (a pending invitation past its expiry,
 * never stored) and `none` is the address's state before it is invited. Accepting also moves the
 * invitee's membership (the membership table's `join`), whose refusals come after this table's.
 *
 * | from               | event              | guards                                        | to       | effects                        |
 * |--------------------|--------------------|-----------------------------------------------|----------|--------------------------------|
 * | none               | create             | not an active member, not a suspended member, | pending  | a link mailed; audit, event    |
 * |                    |                    | no pending invitation to the address          |          |                                |
 * | pending / expired  | resend             | -                                             | pending  | a new link mailed; audit       |
 * | pending            | revoke             | -                                             | revoked  | audit                          |
 * | pending            | accept             | the invitee's own address                     | accepted | the invitee joins; audit, event|
 * | pending / expired  | membership_revoked | -                                             | revoked  | (the membership's revocation)  |
 *
 * Any other move is 409, accept's is 404 (the link is simply not valid), as is a move of an invitation
 * that does not exist.
 */
import type { AuditAction } from '@/lib/audit';
import { serviceError } from '@/lib/contract/errors';
import type { EventType } from '@/lib/contract/events';
import type { InvitationStatus, StoredInvitationStatus } from '../invitations/invitations.repo';
import type { Guard, TransitionTable } from './table';

export type InvitationState = 'none' | InvitationStatus;

export interface InvitationFacts {
  /** Whether the address belongs to a current member of the organization, and one pending invitation. */
  create: { memberStatus: 'active' | 'suspended' | null; pendingInvitation: boolean };
  resend: Record<string, never>;
  revoke: Record<string, never>;
  /** Whether the signed-in person's (verified) address is the invited one. */
  accept: { invitedAddress: boolean };
  membership_revoked: Record<string, never>;
}

export interface InvitationEffects {
  /** Recorded by the move; null: the change that makes it records itself (a membership's revocation). */
  audit: Extract<AuditAction, `invitation.${string}`> | null;
  emits: readonly EventType[];
}

export const notFound = () => serviceError('not_found', 'No such invitation in this organization.');
/** One answer for every link that cannot be used: unknown, accepted, revoked or expired alike. */
export const invalidLink = () => serviceError('not_found', 'This invitation link is not valid or has expired.');

type CreateFacts = InvitationFacts['create'];

const notActiveMember: Guard<CreateFacts> = {
  says: 'the address is not an active member',
  holds: (facts) => facts.memberStatus !== 'active',
  refusal: () => serviceError('conflict', 'This address already belongs to an active member of the organization.'),
};

// Lifting a suspension is a member change (members.manage), never a side effect of an invitation.
const notSuspendedMember: Guard<CreateFacts> = {
  says: 'the address is not a suspended member',
  holds: (facts) => facts.memberStatus !== 'suspended',
  refusal: () => serviceError('conflict', 'This address belongs to a suspended member: re-activate the membership instead.'),
};

const noPendingInvitation: Guard<CreateFacts> = {
  says: 'no pending invitation to the address',
  holds: (facts) => !facts.pendingInvitation,
  refusal: () => serviceError('conflict', 'This address already has a pending invitation: resend it instead.'),
};

// Every account's address is verified at enrollment; the invited address is never echoed back.
const invitedAddress: Guard<InvitationFacts['accept']> = {
  says: "the invitee's own address",
  holds: (facts) => facts.invitedAddress,
  refusal: () => serviceError('forbidden', 'This invitation was sent to another e-mail address. Sign in with the account that uses the invited address.'),
};

export const INVITATION_TRANSITIONS: TransitionTable<InvitationState, StoredInvitationStatus, InvitationFacts, InvitationEffects> = {
  states: ['none', 'pending', 'expired', 'accepted', 'revoked'],
  events: ['create', 'resend', 'revoke', 'accept', 'membership_revoked'],
  rows: [
    {
      from: ['none'],
      event: 'create',
      guards: [notActiveMember, notSuspendedMember, noPendingInvitation],
      to: 'pending',
      effects: { audit: 'invitation.created', emits: ['identity.organization.invitation.created'] },
    },
    { from: ['pending', 'expired'], event: 'resend', guards: [], to: 'pending', effects: { audit: 'invitation.resent', emits: [] } },
    { from: ['pending'], event: 'revoke', guards: [], to: 'revoked', effects: { audit: 'invitation.revoked', emits: [] } },
    {
      from: ['pending'],
      event: 'accept',
      guards: [invitedAddress],
      to: 'accepted',
      effects: { audit: 'invitation.accepted', emits: ['identity.organization.invitation.accepted'] },
    },
    // Revocation of a membership is final: an invitation mailed earlier (say, while the member was
    // suspended, or expired: a resend would revive it) must not bring them back.
    { from: ['pending', 'expired'], event: 'membership_revoked', guards: [], to: 'revoked', effects: { audit: null, emits: [] } },
  ],
  unlisted: (state, event) => {
    if (event === 'accept') return invalidLink();
    if (state === 'none') return notFound();
    switch (event) {
      case 'resend':
        return serviceError('conflict', `This invitation is ${state}; only pending or expired invitations can be resent.`);
      case 'revoke':
        return serviceError('conflict', `This invitation is ${state}; only pending invitations can be revoked.`);
      default:
        return serviceError('conflict', `This invitation is ${state}.`);
    }
  },
};
