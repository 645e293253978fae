/**
 * A person joins an organization (the membership table's `join`): a new membership, or a revoked one
 * made active again, with its member.added event. Invitations and federated sign-in both join this way.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { MEMBERSHIP_TRANSITIONS } from '../transitions/memberships';
import { decide } from '../transitions/table';
import { memberEvent } from './members';
import { findMembershipOfUser, insertMembershipRow, updateMembership, type MemberRow } from './members.repo';

export interface Joining {
  organizationId: string;
  userId: string;
  role: MemberRow['role'];
  customRoleId: string | null;
}

/** Joins, or refuses as the table does (an active or suspended member cannot join again). */
export async function joinOrganization(tx: Executor, joining: Joining, now: Date): Promise<string> {
  const { organizationId, userId } = joining;
  const existing = await findMembershipOfUser(tx, organizationId, userId);
  const join = await decide(MEMBERSHIP_TRANSITIONS, existing?.status ?? 'none', 'join', {});
  const membership = { role: joining.role, customRoleId: joining.customRoleId, status: join.to };
  const membershipId = existing?.id ?? randomUUID();
  if (existing) await updateMembership(tx, organizationId, membershipId, membership, now);
  else await insertMembershipRow(tx, { id: membershipId, organizationId, userId, ...membership, createdAt: now, updatedAt: now });
  for (const type of join.effects.emits) await emitEvent(tx, type, memberEvent(organizationId, { id: membershipId, userId }), { organizationId }, now);
  return membershipId;
}

/** The person's membership status in the organization (null when they never belonged). */
export async function membershipStatusOf(tx: Executor, organizationId: string, userId: string): Promise<MemberRow['status'] | null> {
  return (await findMembershipOfUser(tx, organizationId, userId))?.status ?? null;
}
