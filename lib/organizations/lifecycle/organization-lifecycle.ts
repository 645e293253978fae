/**
 * The two ways out of an organization (extensions of the spec, docs/decisions.md "Leaving and deleting
 * an organization"): a member leaves it, or an owner deletes it. Both take the organization's row lock
 * first and decide under it, as every owner-changing write does (members.ts), so a leave and a
 * demotion, or two owners leaving at once, can never leave it without an active owner.
 */
import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { TenantActor } from '@/lib/contract/tenant';
import { inTransaction } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { endOrganizationGrants } from '@/lib/oidc';
import { memberEvent } from '../members/members';
import { countOtherActiveOwners, findMember, updateMembership } from '../members/members.repo';
import { membershipEnded } from '../membership-ended';
import { countersOf, deleteOrganizationRow, everMemberUserIds } from './organization-lifecycle.repo';
import { findOrganization, lockOrganization } from './organizations.repo';

const lastOwner = () =>
  serviceError('conflict', 'You are the last active owner of this organization: make another member an owner first, or delete the organization.');
const notFound = () => serviceError('not_found', 'No such organization.');

/**
 * The caller ends their own membership: as a removal does (groups, delegated grants, pending
 * invitations, OAuth grants bound to the organization all go), but never for the last active owner.
 * Not behind the `members.remove` approval policy: that policy guards removing someone else.
 */
export async function leaveOrganization(tenant: TenantActor, actor: SessionActor, now: Date, requestId: string) {
  const organizationId = tenant.organizationId;
  await inTransaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const me = await findMember(tx, organizationId, tenant.membershipId);
    if (!me || me.status !== 'active') throw notFound();
    if (me.role === 'owner' && (await countOtherActiveOwners(tx, organizationId, me.id)) === 0) throw lastOwner();
    await updateMembership(tx, organizationId, me.id, { status: 'revoked' }, now);
    await membershipEnded(tx, { organizationId, membershipId: me.id, userId: me.userId, reason: 'revoked' }, now);
    await recordAudit(tx, { action: 'member.left', outcome: 'success', actor, organizationId, subject: { type: 'membership', id: me.id }, requestId, at: now });
    await emitEvent(tx, 'identity.organization.member.removed', memberEvent(organizationId, me), { organizationId }, now);
  });
  return { left: true as const, organization_id: organizationId };
}

/**
 * An owner deletes the organization, naming it (`confirm_name` must equal its current name, so a
 * script or a slip cannot delete the wrong one by id). In one transaction: every OAuth grant bound to
 * it ends (with its tokens, and the API keys an application created under it), the audit event is
 * written (it stays: the trail is append-only), and the row goes, taking memberships, invitations,
 * groups, roles, policies, delegations, approvals, the action catalog and application assignments
 * with it. No webhook event: the catalogue has no organization.deleted, and the assignments that route
 * organization events to receivers go with the organization.
 */
export async function deleteOrganization(tenant: TenantActor, actor: SessionActor, confirmName: string, now: Date, requestId: string) {
  const organizationId = tenant.organizationId;
  return inTransaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const organization = await findOrganization(tx, organizationId);
    if (!organization) throw notFound();
    // The tenant was resolved before the lock: a demotion that committed meanwhile is seen here.
    const me = await findMember(tx, organizationId, tenant.membershipId);
    if (me?.status !== 'active' || me.role !== 'owner') {
      throw serviceError('forbidden', 'Only an owner may delete the organization.', { extras: { permission: 'owner' } });
    }
    if (confirmName !== organization.name) {
      const message = 'Type the organization’s name exactly as it is to confirm.';
      throw serviceError('invalid_request', message, { extras: { errors: [{ path: 'body.confirm_name', message }] } });
    }
    const counters = await countersOf(tx, organizationId, now);
    let grantsRevoked = 0;
    for (const userId of await everMemberUserIds(tx, organizationId)) grantsRevoked += await endOrganizationGrants(tx, { userId, organizationId }, now);
    await recordAudit(tx, {
      action: 'organization.deleted',
      outcome: 'success',
      actor,
      organizationId,
      subject: { type: 'organization', id: organizationId },
      requestId,
      data: { name: organization.name, slug: organization.slug, members: counters.members, invitations: counters.invitations, grants_revoked: grantsRevoked },
      at: now,
    });
    if (!(await deleteOrganizationRow(tx, organizationId))) throw notFound();
    return { deleted: true as const, members_removed: counters.members, invitations_revoked: counters.invitations, grants_revoked: grantsRevoked };
  });
}
