/**
 * Members of an organization: list, change role or status, revoke. The rules that depend on the data
 * live here: only an owner changes or removes an owner, and the last active owner is never demoted,
 * suspended or removed. Owner-changing writes take the organization's row lock first and decide under
 * it, so two concurrent changes cannot both pass the count.
 */
import { recordAudit } from '@/lib/audit';
import type { Actor, SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { emitEvent } from '@/lib/events';
import { passApprovalGate } from './approval-gate';
import { bearerEnvelope } from './bearer-envelope';
import {
  countOtherActiveOwners,
  findMember,
  listMembers,
  updateMembership,
  type MemberRow,
  type MembershipChange,
  type MembershipStatus,
} from './members.repo';
import { membershipEnded } from './membership-ended';
import { lockOrganization } from './organizations.repo';
import { assertMemberWithinReach, roleAssignment } from './role-assignment';
import { roleRef } from './roles-view';

export const MEMBER_STATUSES = ['active', 'suspended', 'revoked'] as const;
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
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type MemberView = ReturnType<typeof memberView>;

/** Browser and bearer lists alike; the bearer envelope adds the credential kind and its scopes. */
export async function listOrganizationMembers(
  tenant: TenantActor,
  status: MembershipStatus | undefined,
  page: PageRequest,
  actor: Actor,
): Promise<Page<MemberView>> {
  const rows = await listMembers(await getDb(), tenant.organizationId, status ? [status] : DEFAULT_STATUSES, page.after, page.limit + 1);
  const result = toPage(rows, page);
  return { ...result, items: result.items.map(memberView), extra: bearerEnvelope(actor) };
}

const notFound = () => serviceError('not_found', 'No such member in this organization.');
const ownerOnly = () => serviceError('forbidden', 'Only an owner may change or remove an owner.', { extras: { permission: 'owner' } });
const lastOwner = () => serviceError('conflict', 'The organization must keep at least one active owner: make someone else an owner first.');

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

/** An active owner stops being one (demoted, suspended or revoked): another active owner must remain. */
async function assertAnotherOwner(tx: Executor, organizationId: string, target: MemberRow): Promise<void> {
  if (target.role !== 'owner' || target.status !== 'active') return;
  if ((await countOtherActiveOwners(tx, organizationId, target.id)) === 0) throw lastOwner();
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
    if (target.status === 'revoked') throw serviceError('conflict', 'This membership was revoked; invite the person again instead.');
    const change: MembershipChange = {};
    if (input.role !== undefined) {
      const assignment = await roleAssignment(tx, tenant, input.role);
      change.role = assignment.role;
      change.customRoleId = assignment.customRoleId;
    }
    if (input.status !== undefined) change.status = input.status;
    const stopsBeingOwner = (change.role !== undefined && change.role !== 'owner') || change.status === 'suspended';
    if (stopsBeingOwner) await assertAnotherOwner(tx, tenant.organizationId, target);
    // Suspending ends the member's access as removing does: gated alike, by `members.remove`.
    const suspends = target.status === 'active' && change.status === 'suspended';
    if (suspends) await passApprovalGate(tx, tenant, actor, { action: 'members.suspend', target: target.id, approvalId }, now, requestId);
    await updateMembership(tx, tenant.organizationId, target.id, change, now);
    if (suspends) {
      await membershipEnded(tx, { organizationId: tenant.organizationId, membershipId: target.id, userId: target.userId, reason: 'suspended' }, now);
    }
    const updated = (await findMember(tx, tenant.organizationId, target.id))!;
    await recordAudit(tx, {
      action: 'member.updated',
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'membership', id: target.id },
      requestId,
      // Old and new role and status (never secrets): the audit log says what changed, from what.
      data: { fields: fields.join(','), role: roleRef(updated).role, status: updated.status, role_from: roleRef(target).role, status_from: target.status },
      at: now,
    });
    await emitEvent(tx, 'identity.organization.member.updated', memberEvent(tenant.organizationId, updated), { organizationId: tenant.organizationId }, now);
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
    if (target.status === 'revoked') throw serviceError('conflict', 'This membership is already revoked.');
    await assertAnotherOwner(tx, tenant.organizationId, target);
    await passApprovalGate(tx, tenant, actor, { action: 'members.remove', target: target.id, approvalId }, now, requestId);
    await updateMembership(tx, tenant.organizationId, target.id, { status: 'revoked' }, now);
    await membershipEnded(tx, { organizationId: tenant.organizationId, membershipId: target.id, userId: target.userId, reason: 'revoked' }, now);
    await recordAudit(tx, {
      action: 'member.revoked',
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'membership', id: target.id },
      requestId,
      at: now,
    });
    await emitEvent(tx, 'identity.organization.member.removed', memberEvent(tenant.organizationId, target), { organizationId: tenant.organizationId }, now);
  });
  return { revoked: true as const };
}

/** Privacy-minimised member event payload: identifiers only, never the address or name. */
export function memberEvent(organizationId: string, row: { id: string; userId: string }) {
  return { organization_id: organizationId, membership_id: row.id, user_id: row.userId };
}
