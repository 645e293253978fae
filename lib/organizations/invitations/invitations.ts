/**
 * Invitations by e-mail. The token is 32 random bytes (base64url) that travel only in the mail; the
 * service keeps their SHA-256. Their lifecycle is one table (transitions/invitations.ts), accepting
 * also the membership's (transitions/memberships.ts). Before accepting, the invitation page previews
 * an invitation the link could accept (organization name, role name, expiry); unknown, used, revoked
 * and expired links answer the same 404 as accept does.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { canonicalEmail, deliver, startVerifiedEnrollment } from '@/lib/accounts';
import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
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
import { joinOrganization } from '../members/join';
import { currentMemberStatusByEmail } from '../members/members.repo';
import { findOrganization, lockOrganization } from '../lifecycle/organizations.repo';
import { roleAssignment } from '../roles/role-assignment';
import { roleRef } from '../roles/roles-view';
import { INVITATION_TRANSITIONS, invalidLink, notFound, type InvitationEffects } from '../transitions/invitations';
import { decide, passGuards, transitionFor } from '../transitions/table';

export { INVITATION_STATUSES } from './invitations.contract';

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
  now: Date,
): Promise<Page<InvitationView>> {
  const rows = await listInvitations(await getDb(), tenant.organizationId, status, now, page.after, page.limit + 1);
  const result = toPage(rows, page);
  return { ...result, items: result.items.map((row) => invitationView(row, now)) };
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

function newToken(now: Date) {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + getConfig().ttl.invitation * 1000) };
}

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
  const { row } = await inTransaction(async (tx) => {
    const assignment = await roleAssignment(tx, tenant, input.role);
    // Serialises invitations of one organization: two concurrent invites of one address cannot both pass.
    await lockOrganization(tx, tenant.organizationId);
    const move = await decide(INVITATION_TRANSITIONS, 'none', 'create', {
      memberStatus: await currentMemberStatusByEmail(tx, tenant.organizationId, input.email),
      pendingInvitation: await pendingInvitationFor(tx, tenant.organizationId, input.email, now),
    });
    const { token, tokenHash, expiresAt } = newToken(now);
    const id = randomUUID();
    await insertInvitation(tx, {
      id,
      organizationId: tenant.organizationId,
      email: input.email,
      role: assignment.role,
      customRoleId: assignment.customRoleId,
      tokenHash,
      status: move.to,
      invitedBy: actor.userId,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    });
    const row = (await findInvitation(tx, tenant.organizationId, id))!;
    await recordMove(tx, move.effects, { actor, organizationId: tenant.organizationId, invitationId: id, requestId, now }, { role: roleRef(row).role });
    // Mailed before commit: a mail server that refuses rolls the invitation back (503, nothing kept).
    await deliver(await mailInvitation(tx, row, token, actor));
    return { row };
  });
  return invitationView(row, now);
}

/** A new link (the old one stops working) and a new expiry, mailed again. Pending or expired only. */
export async function resendInvitation(tenant: TenantActor, actor: SessionActor, invitationId: string, now: Date, requestId: string): Promise<InvitationView> {
  const { row } = await inTransaction(async (tx) => {
    if (!(await lockInvitation(tx, tenant.organizationId, invitationId))) throw notFound();
    const current = (await findInvitation(tx, tenant.organizationId, invitationId))!;
    const move = await decide(INVITATION_TRANSITIONS, invitationStatus(current, now), 'resend', {});
    const { token, tokenHash, expiresAt } = newToken(now);
    await updateInvitation(tx, tenant.organizationId, invitationId, { status: move.to, tokenHash, expiresAt }, now);
    const row = { ...current, status: move.to, expiresAt };
    await recordMove(tx, move.effects, { actor, organizationId: tenant.organizationId, invitationId, requestId, now });
    // Mailed before commit: refused, the old link stays the valid one.
    await deliver(await mailInvitation(tx, row, token, actor));
    return { row };
  });
  return invitationView(row, now);
}

export async function revokeInvitation(tenant: TenantActor, actor: SessionActor, invitationId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    if (!(await lockInvitation(tx, tenant.organizationId, invitationId))) throw notFound();
    const current = (await findInvitation(tx, tenant.organizationId, invitationId))!;
    const move = await decide(INVITATION_TRANSITIONS, invitationStatus(current, now), 'revoke', {});
    await updateInvitation(tx, tenant.organizationId, invitationId, { status: move.to }, now);
    await recordMove(tx, move.effects, { actor, organizationId: tenant.organizationId, invitationId, requestId, now });
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
  if (!invitation) throw invalidLink();
  // What the page shows is an invitation the link could accept: the table's answer for the others.
  transitionFor(INVITATION_TRANSITIONS, invitationStatus(invitation, now), 'accept');
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
    if (!invitation) throw invalidLink();
    const move = transitionFor(INVITATION_TRANSITIONS, invitationStatus(invitation, now), 'accept');
    const user = await findUserById(tx, actor.userId);
    await passGuards(move, { invitedAddress: user !== null && canonicalEmail(user.email) === canonicalEmail(invitation.email) });
    const organizationId = invitation.organizationId;
    const joining = { organizationId, userId: actor.userId, role: invitation.role, customRoleId: invitation.customRoleId };
    const membershipId = await joinOrganization(tx, joining, now);
    await updateInvitation(tx, organizationId, invitation.id, { status: move.to, acceptedAt: now, membershipId }, now);
    const record = { actor, organizationId, invitationId: invitation.id, requestId, now };
    await recordMove(tx, move.effects, record, { membership_id: membershipId }, { membership_id: membershipId });
    return { organization_id: organizationId, membership_id: membershipId };
  });
}

interface MoveRecord {
  actor: SessionActor;
  organizationId: string;
  invitationId: string;
  requestId: string;
  now: Date;
}

/** What a move records, as its row says: the audit action (with its data) and the events it emits. */
async function recordMove(
  tx: Executor,
  effects: InvitationEffects,
  record: MoveRecord,
  data?: Record<string, string>,
  eventData: Record<string, string> = {},
): Promise<void> {
  const { actor, organizationId, invitationId, requestId, now } = record;
  if (effects.audit) {
    const subject = { type: 'invitation', id: invitationId };
    await recordAudit(tx, { action: effects.audit, outcome: 'success', actor, organizationId, subject, requestId, ...(data ? { data } : {}), at: now });
  }
  const payload = { organization_id: organizationId, invitation_id: invitationId, ...eventData };
  for (const type of effects.emits) await emitEvent(tx, type, payload, { organizationId }, now);
}
