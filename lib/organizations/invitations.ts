/**
 * Invitations by e-mail. The token is 32 random bytes (base64url) that travel only in the mail; the
 * service keeps their SHA-256. Lifecycle (stored status, with `expired` computed from expires_at):
 *
 * | from               | event   | guard                                   | to       | also                         |
 * |--------------------|---------|-----------------------------------------|----------|------------------------------|
 * | (none)             | create  | not an active or suspended member,      | pending  | mail with the link           |
 * |                    |         | no live invite                          |          |                              |
 * | pending / expired  | resend  | -                                       | pending  | new token and expiry, mail   |
 * | pending            | revoke  | -                                       | revoked  |                              |
 * | pending            | accept  | unexpired, the invitee's own address,   | accepted | membership created or        |
 * |                    |         | not an active or suspended member       |          | a revoked one re-activated   |
 *
 * Any other move is 409 (accept: 404, the link is simply not valid). Before accepting, the invitation
 * page previews a pending invitation by its token (organization name, role name, expiry); unknown,
 * used, revoked and expired links answer the same 404 as accept does.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { canonicalEmail, deliver, startVerifiedEnrollment } from '@/lib/accounts';
import { recordAudit } from '@/lib/audit';
import type { Actor, SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getConfig } from '@/lib/config';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { emitEvent } from '@/lib/events';
import { findUserById } from '@/lib/users';
import { invitationMail } from './invitation-mail';
import {
  findInvitation,
  findInvitationByTokenHash,
  insertInvitation,
  listInvitations,
  lockInvitation,
  lockInvitationByTokenHash,
  pendingInvitationFor,
  updateInvitation,
  type InvitationRow,
  type InvitationStatus,
} from './invitations.repo';
import { bearerEnvelope } from './bearer-envelope';
import { memberEvent } from './members';
import { currentMemberStatusByEmail, findMembershipOfUser, insertMembershipRow, updateMembership } from './members.repo';
import { findOrganization, lockOrganization } from './organizations.repo';
import { roleAssignment } from './role-assignment';
import { roleRef } from './roles-view';

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

export function invitationStatus(row: Pick<InvitationRow, 'status' | 'expiresAt'>, now: Date): InvitationStatus {
  return row.status === 'pending' && row.expiresAt <= now ? 'expired' : row.status;
}

export function invitationView(row: InvitationRow, now: Date) {
  return {
    id: row.id,
    email: row.email,
    ...roleRef(row),
    status: invitationStatus(row, now),
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

export type InvitationView = ReturnType<typeof invitationView>;

export async function listOrganizationInvitations(
  tenant: TenantActor,
  status: InvitationStatus | undefined,
  page: PageRequest,
  actor: Actor,
  now: Date,
): Promise<Page<InvitationView>> {
  const rows = await listInvitations(await getDb(), tenant.organizationId, status, now, page.after, page.limit + 1);
  const result = toPage(rows, page);
  return { ...result, items: result.items.map((row) => invitationView(row, now)), extra: bearerEnvelope(actor) };
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

function newToken(now: Date) {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + getConfig().ttl.invitation * 1000) };
}

const notFound = () => serviceError('not_found', 'No such invitation in this organization.');
/** One answer for every link that cannot be used: unknown, accepted, revoked or expired alike. */
const invalidLink = () => serviceError('not_found', 'This invitation link is not valid or has expired.');

/**
 * The mail with the link, naming who sends it (the person inviting or resending, by name and address)
 * and to what; sent once the change committed (as the account mails are), a failure is 503.
 */
async function mailInvitation(tx: Executor, row: InvitationRow, token: string, sender: SessionActor) {
  const organization = await findOrganization(tx, row.organizationId);
  const inviter = await findUserById(tx, sender.userId);
  return invitationMail({
    to: row.email,
    inviter: inviter ? { email: inviter.email, displayName: inviter.displayName } : null,
    organizationName: organization?.name ?? 'an organization',
    roleName: roleRef(row).role_name,
    token,
    expiresAt: row.expiresAt,
  });
}

export async function createInvitation(
  tenant: TenantActor,
  actor: SessionActor,
  input: { email: string; role: string },
  now: Date,
  requestId: string,
): Promise<InvitationView> {
  const { row, mail } = await inTransaction(async (tx) => {
    const assignment = await roleAssignment(tx, tenant, input.role);
    // Serialises invitations of one organization: two concurrent invites of one address cannot both pass.
    await lockOrganization(tx, tenant.organizationId);
    const memberStatus = await currentMemberStatusByEmail(tx, tenant.organizationId, input.email);
    if (memberStatus === 'active') throw serviceError('conflict', 'This address already belongs to an active member of the organization.');
    // Lifting a suspension is a member change (members.manage), never a side effect of an invitation.
    if (memberStatus === 'suspended') throw serviceError('conflict', 'This address belongs to a suspended member: re-activate the membership instead.');
    if (await pendingInvitationFor(tx, tenant.organizationId, input.email, now)) {
      throw serviceError('conflict', 'This address already has a pending invitation: resend it instead.');
    }
    const { token, tokenHash, expiresAt } = newToken(now);
    const id = randomUUID();
    await insertInvitation(tx, {
      id,
      organizationId: tenant.organizationId,
      email: input.email,
      role: assignment.role,
      customRoleId: assignment.customRoleId,
      tokenHash,
      status: 'pending',
      invitedBy: actor.userId,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    });
    const row = (await findInvitation(tx, tenant.organizationId, id))!;
    await recordAudit(tx, {
      action: 'invitation.created',
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'invitation', id },
      requestId,
      data: { role: roleRef(row).role },
      at: now,
    });
    await emitEvent(
      tx,
      'identity.organization.invitation.created',
      { organization_id: tenant.organizationId, invitation_id: id },
      { organizationId: tenant.organizationId },
      now,
    );
    return { row, mail: await mailInvitation(tx, row, token, actor) };
  });
  await deliver(mail);
  return invitationView(row, now);
}

/** A new link (the old one stops working) and a new expiry, mailed again. Pending or expired only. */
export async function resendInvitation(tenant: TenantActor, actor: SessionActor, invitationId: string, now: Date, requestId: string): Promise<InvitationView> {
  const { row, mail } = await inTransaction(async (tx) => {
    if (!(await lockInvitation(tx, tenant.organizationId, invitationId))) throw notFound();
    const current = (await findInvitation(tx, tenant.organizationId, invitationId))!;
    if (current.status !== 'pending')
      throw serviceError('conflict', `This invitation is ${current.status}; only pending or expired invitations can be resent.`);
    const { token, tokenHash, expiresAt } = newToken(now);
    await updateInvitation(tx, tenant.organizationId, invitationId, { tokenHash, expiresAt }, now);
    const row = { ...current, expiresAt };
    await recordAudit(tx, {
      action: 'invitation.resent',
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'invitation', id: invitationId },
      requestId,
      at: now,
    });
    return { row, mail: await mailInvitation(tx, row, token, actor) };
  });
  await deliver(mail);
  return invitationView(row, now);
}

export async function revokeInvitation(tenant: TenantActor, actor: SessionActor, invitationId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    if (!(await lockInvitation(tx, tenant.organizationId, invitationId))) throw notFound();
    const current = (await findInvitation(tx, tenant.organizationId, invitationId))!;
    const status = invitationStatus(current, now);
    if (status !== 'pending') throw serviceError('conflict', `This invitation is ${status}; only pending invitations can be revoked.`);
    await updateInvitation(tx, tenant.organizationId, invitationId, { status: 'revoked' }, now);
    await recordAudit(tx, {
      action: 'invitation.revoked',
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'invitation', id: invitationId },
      requestId,
      at: now,
    });
  });
  return { revoked: true as const };
}

/**
 * What the invitation page shows before anyone accepts: the organization's name, the role's name and
 * the expiry of a pending invitation. Nothing about the invited address (the page must not confirm an
 * address to whoever holds a link) and no ids.
 */
export async function previewInvitation(token: string, now: Date) {
  const db = await getDb();
  const invitation = await findInvitationByTokenHash(db, hashToken(token));
  if (!invitation || invitationStatus(invitation, now) !== 'pending') throw invalidLink();
  const organization = await findOrganization(db, invitation.organizationId);
  if (!organization) throw invalidLink();
  return { organization: { name: organization.name }, role_name: roleRef(invitation).role_name, expires_at: invitation.expiresAt.toISOString() };
}

/**
 * Sign-up from an invitation link (docs/decisions.md, "Sign-up from an invitation"): the token, checked
 * here as accept checks it (pending, unexpired; the row locked, so a concurrent revoke is seen), proves
 * the invited mailbox, so the enrollment it starts is for the invited address only and verified from
 * the start. The invitation itself stays pending: joining is still the invitee's own act, once, with
 * the same link. Unusable links get the one 404 of preview and accept.
 */
export async function startEnrollmentFromInvitation(token: string, now: Date, requestId: string) {
  return inTransaction(async (tx) => {
    const invitation = await lockInvitationByTokenHash(tx, hashToken(token));
    if (!invitation || invitationStatus(invitation, now) !== 'pending') throw invalidLink();
    return startVerifiedEnrollment(tx, invitation.email, 'invitation', now, requestId);
  });
}

/**
 * The signed-in person accepts with the link's token. The invitation row is locked first, so of two
 * concurrent accepts one creates the membership and the other finds the invitation used.
 */
export async function acceptInvitation(actor: SessionActor, token: string, now: Date, requestId: string) {
  return inTransaction(async (tx) => {
    const invitation = await lockInvitationByTokenHash(tx, hashToken(token));
    if (!invitation || invitationStatus(invitation, now) !== 'pending') throw invalidLink();
    const user = await findUserById(tx, actor.userId);
    // Every account's address is verified at enrollment; the invited address is never echoed back.
    if (!user || canonicalEmail(user.email) !== canonicalEmail(invitation.email)) {
      throw serviceError('forbidden', 'This invitation was sent to another e-mail address. Sign in with the account that uses the invited address.');
    }
    const organizationId = invitation.organizationId;
    const existing = await findMembershipOfUser(tx, organizationId, actor.userId);
    if (existing?.status === 'active') throw serviceError('conflict', 'You are already a member of this organization.');
    if (existing?.status === 'suspended')
      throw serviceError('conflict', 'Your membership of this organization is suspended; an invitation does not lift a suspension.');
    const role = { role: invitation.role, customRoleId: invitation.customRoleId };
    const membershipId = existing?.id ?? randomUUID();
    if (existing) await updateMembership(tx, organizationId, membershipId, { ...role, status: 'active' }, now);
    else await insertMembershipRow(tx, { id: membershipId, organizationId, userId: actor.userId, ...role, status: 'active', createdAt: now, updatedAt: now });
    await updateInvitation(tx, organizationId, invitation.id, { status: 'accepted', acceptedAt: now, membershipId }, now);
    await recordAudit(tx, {
      action: 'invitation.accepted',
      outcome: 'success',
      actor,
      organizationId,
      subject: { type: 'invitation', id: invitation.id },
      requestId,
      data: { membership_id: membershipId },
      at: now,
    });
    await emitEvent(
      tx,
      'identity.organization.invitation.accepted',
      { organization_id: organizationId, invitation_id: invitation.id, membership_id: membershipId },
      { organizationId },
      now,
    );
    await emitEvent(tx, 'identity.organization.member.added', memberEvent(organizationId, { id: membershipId, userId: actor.userId }), { organizationId }, now);
    return { organization_id: organizationId, membership_id: membershipId };
  });
}
