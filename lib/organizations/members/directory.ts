/**
 * What a directory (a SCIM client, acting with the organization's token) does to memberships: a
 * provisioned person joins, or an existing membership is adopted; `active` suspends or reactivates;
 * deprovisioning revokes. Each goes through the membership table's moves, with the same consequences
 * as an admin's change (access ends, audit, events) and the same owner rule (the last active owner is
 * never suspended or removed). No approval gate: the directory is the organization's source of truth
 * for the people it manages, and its token was issued by an admin with a step-up (docs/decisions.md).
 */
import { recordAudit } from '@/lib/audit';
import type { Actor } from '@/lib/contract/actor';
import type { Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { lockOrganization } from '../lifecycle/organizations.repo';
import { membershipEnded } from '../membership-ended';
import { MEMBERSHIP_TRANSITIONS } from '../transitions/memberships';
import { decide } from '../transitions/table';
import { joinOrganization } from './join';
import { memberEvent } from './members';
import { countOtherActiveOwners, findMember, findMembershipOfUser, updateMembership } from './members.repo';

export type DirectoryMove = 'suspend' | 'reactivate' | 'revoke';

/** The person's membership: their active or suspended one as it is, else a new (or renewed) one. */
export async function directoryMembership(tx: Executor, organizationId: string, userId: string, now: Date): Promise<{ membershipId: string; active: boolean }> {
  const existing = await findMembershipOfUser(tx, organizationId, userId);
  if (existing && existing.status !== 'revoked') return { membershipId: existing.id, active: existing.status === 'active' };
  return { membershipId: await joinOrganization(tx, { organizationId, userId, role: 'member', customRoleId: null }, now), active: true };
}

/** Suspends, reactivates or revokes a membership the directory manages; a move to where it is changes nothing. */
export async function moveDirectoryMembership(
  tx: Executor,
  organizationId: string,
  membershipId: string,
  event: DirectoryMove,
  actor: Actor,
  now: Date,
  requestId: string,
): Promise<void> {
  // Owner counts are read under the organization's lock, as every owner-changing write does.
  await lockOrganization(tx, organizationId);
  const target = await findMember(tx, organizationId, membershipId);
  if (!target || (event === 'reactivate' && target.status === 'active') || (event === 'suspend' && target.status === 'suspended')) return;
  const facts = { target, otherActiveOwners: () => countOtherActiveOwners(tx, organizationId, target.id) };
  const move = await decide(MEMBERSHIP_TRANSITIONS, target.status, event, event === 'reactivate' ? {} : facts);
  await updateMembership(tx, organizationId, target.id, { status: move.to }, now);
  const { ends, audit, emits } = move.effects;
  if (ends) await membershipEnded(tx, { organizationId, membershipId: target.id, userId: target.userId, reason: ends }, now);
  if (audit) {
    const data = audit === 'member.updated' ? { fields: 'status', status: move.to, status_from: target.status } : undefined;
    const subject = { type: 'membership', id: target.id };
    await recordAudit(tx, { action: audit, outcome: 'success', actor, organizationId, subject, requestId, data, at: now });
  }
  for (const type of emits) await emitEvent(tx, type, memberEvent(organizationId, target), { organizationId }, now);
}
