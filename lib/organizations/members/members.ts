/**
 * Members of an organization: list, change role or status, revoke. Only an owner changes or removes
 * an owner (here); the moves themselves, and the rule that the last active owner is never demoted,
 * suspended or removed, are the membership table's (transitions/memberships.ts). Owner-changing
 * writes take the organization's row lock first and decide under it, so two concurrent changes cannot
 * both pass the count.
 */
import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { emitEvent } from '@/lib/events';
import { passApprovalGate } from '../approvals/approval-gate';
import {
  countOtherActiveOwners,
  findMember,
  listMembers,
  updateMembership,
  type MemberRow,
  type MembershipChange,
  type MembershipStatus,
} from './members.repo';
import { membershipEnded } from '../membership-ended';
import { lockOrganization } from '../lifecycle/organizations.repo';
import { assertMemberWithinReach, roleAssignment } from '../roles/role-assignment';
import { roleRef } from '../roles/roles-view';
import { MEMBERSHIP_TRANSITIONS, type MembershipEffects, type OwnerFacts } from '../transitions/memberships';
import { decide, passGuards, transitionFor } from '../transitions/table';

export { MEMBER_STATUSES } from './members.contract';
/** Without a filter the list shows the people who are (or may again be) in the organization. */
const DEFAULT_STATUSES: readonly MembershipStatus[] = ['active', 'suspended'];

export function memberView(row: MemberRow) {
  return {
    id: row.id,
    user_id: row.userId,
    email: row.email,
    display_name: row.displayName,
    ...roleRef(row),
    status: row.status,
    managed_by_directory: row.directoryManaged,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type MemberView = ReturnType<typeof memberView>;

/** Browser and bearer lists alike (the edge adds the bearer envelope). */
export async function listOrganizationMembers(tenant: TenantActor, status: MembershipStatus | undefined, page: PageRequest): Promise<Page<MemberView>> {
  const rows = await listMembers(await getDb(), tenant.organizationId, status ? [status] : DEFAULT_STATUSES, page.after, page.limit + 1);
  const result = toPage(rows, page);
  return { ...result, items: result.items.map(memberView) };
}

const notFound = () => serviceError('not_found', 'No such member in this organization.');
const ownerOnly = () => serviceError('forbidden', 'Only an owner may change or remove an owner.', { extras: { permission: 'owner' } });

/**
 * Under the organization's lock: the target membership, and whether the caller is (still) an active
 * owner. The tenant was resolved before the lock, so the caller's role is read again here: a
 * concurrent demotion that committed first is seen.
 */
async function lockedTarget(tx: Executor, tenant: TenantActor, membershipId: string) {
  await lockOrganization(tx, tenant.organizationId);
  const target = await findMember(tx, tenant.organizationId, membershipId);
  if (!target) throw notFound();
  const me = target.id === tenant.membershipId ? target : await findMember(tx, tenant.organizationId, tenant.membershipId);
  const callerIsOwner = me?.status === 'active' && me.role === 'owner';
  if (target.role === 'owner' && !callerIsOwner) throw ownerOnly();
  await assertMemberWithinReach(tx, tenant, target);
  return target;
}

/** What the owner rule reads about the target; the count of the other active owners only when asked. */
function ownerFacts(tx: Executor, organizationId: string, target: MemberRow): OwnerFacts {
  return { target, otherActiveOwners: () => countOtherActiveOwners(tx, organizationId, target.id) };
}

interface MembershipMove {
  to: MembershipStatus;
  effects: MembershipEffects;
}

/** A move the approval policy gates passes the gate first (the approval is used up with the change). */
async function passGate(
  tx: Executor,
  tenant: TenantActor,
  actor: SessionActor,
  target: MemberRow,
  move: MembershipMove,
  approvalId: string | undefined,
  now: Date,
  requestId: string,
) {
  const { gate } = move.effects;
  if (gate) await passApprovalGate(tx, tenant, actor, { action: gate, target: target.id, approvalId }, now, requestId);
}

/** A move that ends the membership's access ends what the person held through it, in the same transaction. */
async function endAccess(tx: Executor, tenant: TenantActor, target: MemberRow, move: MembershipMove, now: Date) {
  const { ends } = move.effects;
  if (ends) await membershipEnded(tx, { organizationId: tenant.organizationId, membershipId: target.id, userId: target.userId, reason: ends }, now);
}

export async function changeMember(
  tenant: TenantActor,
  actor: SessionActor,
  membershipId: string,
  input: { role?: string; status?: 'active' | 'suspended' },
  approvalId: string | undefined,
  now: Date,
  requestId: string,
): Promise<MemberView> {
  const fields = Object.keys(input)
    .filter((key) => input[key as keyof typeof input] !== undefined)
    .sort();
  if (fields.length === 0) throw serviceError('invalid_request', 'Send at least one of role, status.');
  const row = await inTransaction(async (tx) => {
    const target = await lockedTarget(tx, tenant, membershipId);
    // The moves this change makes, refused (a revoked membership) before the new role is looked at.
    const statusEvent = input.status === undefined ? undefined : input.status === 'suspended' ? 'suspend' : 'reactivate';
    const statusMove = statusEvent ? transitionFor(MEMBERSHIP_TRANSITIONS, target.status, statusEvent) : undefined;
    const roleMove = input.role !== undefined ? transitionFor(MEMBERSHIP_TRANSITIONS, target.status, 'change_role') : undefined;
    const owner = ownerFacts(tx, tenant.organizationId, target);
    const change: MembershipChange = {};
    if (roleMove) {
      const assignment = await roleAssignment(tx, tenant, input.role!);
      await passGuards(roleMove, { ...owner, newRole: assignment.role });
      change.role = assignment.role;
      change.customRoleId = assignment.customRoleId;
    }
    if (statusMove) {
      await passGuards(statusMove, owner);
      await passGate(tx, tenant, actor, target, statusMove, approvalId, now, requestId);
      change.status = statusMove.to;
    }
    await updateMembership(tx, tenant.organizationId, target.id, change, now);
    if (statusMove) await endAccess(tx, tenant, target, statusMove, now);
    const updated = (await findMember(tx, tenant.organizationId, target.id))!;
    // One request is one change: its moves name the same record (member.updated), written once.
    const { audit, emits } = (statusMove ?? roleMove)!.effects;
    if (audit) {
      // Old and new role and status (never secrets): the audit log says what changed, from what.
      const data = {
        fields: fields.join(','),
        role: roleRef(updated).role,
        status: updated.status,
        role_from: roleRef(target).role,
        status_from: target.status,
      };
      await recordAudit(tx, {
        action: audit,
        outcome: 'success',
        actor,
        organizationId: tenant.organizationId,
        subject: { type: 'membership', id: target.id },
        requestId,
        data,
        at: now,
      });
    }
    for (const type of emits) await emitEvent(tx, type, memberEvent(tenant.organizationId, updated), { organizationId: tenant.organizationId }, now);
    return updated;
  });
  return memberView(row);
}

/** Revokes a membership (final; the user account stays). Gated by the `members.remove` approval policy, as a suspension is. */
export async function revokeMember(
  tenant: TenantActor,
  actor: SessionActor,
  membershipId: string,
  approvalId: string | undefined,
  now: Date,
  requestId: string,
) {
  await inTransaction(async (tx) => {
    const target = await lockedTarget(tx, tenant, membershipId);
    const move = await decide(MEMBERSHIP_TRANSITIONS, target.status, 'revoke', ownerFacts(tx, tenant.organizationId, target));
    await passGate(tx, tenant, actor, target, move, approvalId, now, requestId);
    await updateMembership(tx, tenant.organizationId, target.id, { status: move.to }, now);
    await endAccess(tx, tenant, target, move, now);
    const { audit, emits } = move.effects;
    if (audit) {
      await recordAudit(tx, {
        action: audit,
        outcome: 'success',
        actor,
        organizationId: tenant.organizationId,
        subject: { type: 'membership', id: target.id },
        requestId,
        at: now,
      });
    }
    for (const type of emits) await emitEvent(tx, type, memberEvent(tenant.organizationId, target), { organizationId: tenant.organizationId }, now);
  });
  return { revoked: true as const };
}

/** Privacy-minimised member event payload: identifiers only, never the address or name. */
export function memberEvent(organizationId: string, row: { id: string; userId: string }) {
  return { organization_id: organizationId, membership_id: row.id, user_id: row.userId };
}
