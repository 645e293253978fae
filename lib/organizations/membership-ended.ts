/**
 * The one place where a membership stopping being active has its consequences, inside the change's
 * transaction. Every path that suspends or revokes a membership calls it, so nothing the person held
 * through the organization outlives their membership.
 */
import type { Executor } from '@/lib/db';
import { endOrganizationGrants } from '@/lib/oidc';
import { movePendingInvitationsOfUser } from './invitations/invitations.repo';
import { removeFromAllGroups, revokeLiveGrants } from './members/members.repo';
import { INVITATION_TRANSITIONS } from './transitions/invitations';
import { onlyRowOf } from './transitions/table';

export interface EndedMembership {
  organizationId: string;
  membershipId: string;
  userId: string;
  /** `suspended` may be undone (the row keeps its groups); `revoked` is final. */
  reason: 'suspended' | 'revoked';
}

export async function membershipEnded(tx: Executor, ended: EndedMembership, now: Date): Promise<void> {
  if (ended.reason === 'revoked') {
    await removeFromAllGroups(tx, ended.organizationId, ended.membershipId);
    await revokeLiveGrants(tx, ended.organizationId, ended.membershipId, now);
    // Revocation is final: an invitation mailed earlier (say, while the member was suspended) must not
    // bring them back; a new invitation, sent after the revocation, still can.
    const { to } = onlyRowOf(INVITATION_TRANSITIONS, 'membership_revoked');
    await movePendingInvitationsOfUser(tx, ended.organizationId, ended.userId, to, now);
  }
  // For both reasons: the member's OAuth grants bound to this organization end, with every access and
  // refresh token issued from them (a re-activated member authorizes the application again).
  await endOrganizationGrants(tx, { userId: ended.userId, organizationId: ended.organizationId }, now);
}
