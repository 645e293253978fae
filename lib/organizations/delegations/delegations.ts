/**
 * Delegated-admin grants: an owner lends an active member a subset of the admin permissions
 * (DELEGABLE_PERMISSIONS), optionally until `expires_at`; revoking ends one early. The pipeline adds
 * every live grant to the member's permissions (tenant.ts), so nothing else needs to know about them.
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { PERMISSIONS, type Permission } from '@/lib/contract/permissions';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { findActiveMember } from '../active-member.repo';
import { delegationApprovalTarget, passApprovalGate } from '../approvals/approval-gate';
import { recordChange } from '../change-record';
import { insertGrant, listGrants, lockGrant, markGrantRevoked, type GrantRow } from './delegations.repo';

/** The furthest a grant may reach: a year; longer standing power belongs in a role. */
export const MAX_GRANT_SECONDS = 365 * 24 * 60 * 60;

export type GrantStatus = 'active' | 'expired' | 'revoked';

export function grantStatus(row: Pick<GrantRow, 'revokedAt' | 'expiresAt'>, now: Date): GrantStatus {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  return 'active';
}

export function grantView(row: GrantRow & { userId: string; email: string }, now: Date) {
  return {
    id: row.id,
    membership_id: row.membershipId,
    user_id: row.userId,
    email: row.email,
    permissions: PERMISSIONS.filter((p) => row.permissions.includes(p)),
    expires_at: row.expiresAt?.toISOString() ?? null,
    status: grantStatus(row, now),
    created_at: row.createdAt.toISOString(),
  };
}

export async function listDelegations(tenant: TenantActor, page: PageRequest, now: Date): Promise<Page<ReturnType<typeof grantView>>> {
  const result = toPage(await listGrants(await getDb(), tenant.organizationId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map((row) => grantView(row, now)) };
}

function expiryError(message: string): never {
  throw serviceError('invalid_request', message, { extras: { errors: [{ path: 'expires_at', message }] } });
}

export interface NewGrant {
  membership_id: string;
  permissions: Permission[];
  expires_at?: Date;
  approval_id?: string;
}

/** Owner only (declared on the operation); gated by the `delegated_admins.create` approval policy. */
export async function createDelegation(tenant: TenantActor, actor: Actor, input: NewGrant, now: Date, requestId: string) {
  const expiresAt = input.expires_at ?? null;
  if (expiresAt && expiresAt <= now) expiryError('The expiry must be in the future.');
  if (expiresAt && expiresAt.getTime() > now.getTime() + MAX_GRANT_SECONDS * 1000) expiryError('A grant lasts at most one year.');
  const permissions = PERMISSIONS.filter((p) => input.permissions.includes(p));
  const row = await inTransaction(async (tx) => {
    const member = await findActiveMember(tx, tenant.organizationId, input.membership_id);
    if (!member) throw serviceError('not_found', 'No active member with this membership id in this organization.');
    const target = delegationApprovalTarget(member.id, permissions, expiresAt);
    await passApprovalGate(tx, tenant, actor, { action: 'delegated_admins.create', target, approvalId: input.approval_id }, now, requestId);
    const grant: GrantRow = {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      membershipId: member.id,
      permissions,
      expiresAt,
      createdBy: tenant.userId,
      revokedAt: null,
      createdAt: now,
    };
    await insertGrant(tx, grant);
    const data = { membership_id: member.id, permissions: permissions.join(','), expires_at: expiresAt?.toISOString() ?? null };
    await recordChange(tx, tenant, actor, { action: 'delegation.created', subject: { type: 'delegation', id: grant.id }, data }, now, requestId);
    return { ...grant, userId: member.userId, email: member.email };
  });
  return grantView(row, now);
}

/** Ends a grant now; an already revoked grant is a conflict (an expired one may still be revoked, for the record). */
export async function revokeDelegation(tenant: TenantActor, actor: Actor, grantId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    const grant = await lockGrant(tx, tenant.organizationId, grantId);
    if (!grant) throw serviceError('not_found', 'No such delegated-admin grant in this organization.');
    if (grant.revokedAt) throw serviceError('conflict', 'This grant is already revoked.');
    await markGrantRevoked(tx, tenant.organizationId, grantId, now);
    await recordChange(tx, tenant, actor, { action: 'delegation.revoked', subject: { type: 'delegation', id: grantId } }, now, requestId);
  });
  return { revoked: true as const };
}
