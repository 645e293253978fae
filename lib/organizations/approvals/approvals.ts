/**
 * Approval requests with separation of duties. One admin requests an approval for a gated change
 * (action + target); another admin approves or rejects it; the requester may cancel it. A decision is
 * taken exactly once (a conditional UPDATE, under concurrency too); an approved approval lets exactly
 * one matching change through (approval-gate.ts). Requests expire after APPROVAL_TTL_SECONDS. The
 * moves, their guards and their refusals are one table (transitions/approvals.ts).
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { GatedChange } from '@/lib/contract/approvals';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { delegationApprovalMember } from './approval-gate';
import { decideApproval, findApproval, insertApproval, listApprovals, type ApprovalRow, type ApprovalStatus } from './approvals.repo';
import { APPROVAL_TRANSITIONS, approvalStatus, type ApprovalDecision } from '../transitions/approvals';
import { onlyRowOf, passGuards, transitionFor } from '../transitions/table';

/** An approval request stays decidable for 24 hours (and an approved one usable until the same time). */
export const APPROVAL_TTL_SECONDS = 24 * 60 * 60;

export function approvalView(row: ApprovalRow, now: Date) {
  const iso = (at: Date | null) => (at ? at.toISOString() : null);
  return {
    id: row.id,
    action: row.action,
    target: row.target,
    reason: row.reason,
    status: approvalStatus(row, now),
    requested_by: row.requestedBy,
    decided_by: row.decidedBy,
    decided_at: iso(row.decidedAt),
    consumed_at: iso(row.consumedAt),
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

export async function listOrganizationApprovals(
  tenant: TenantActor,
  status: ApprovalStatus | undefined,
  page: PageRequest,
  now: Date,
): Promise<Page<ReturnType<typeof approvalView>>> {
  const rows = await listApprovals(await getDb(), tenant.organizationId, status, now, page.after, page.limit + 1);
  const result = toPage(rows, page);
  return { ...result, items: result.items.map((row) => approvalView(row, now)) };
}

export async function requestApproval(
  tenant: TenantActor,
  actor: SessionActor,
  input: { action: GatedChange; target: string; reason?: string },
  now: Date,
  requestId: string,
) {
  const move = transitionFor(APPROVAL_TRANSITIONS, 'none', 'request');
  const row: ApprovalRow = {
    id: randomUUID(),
    organizationId: tenant.organizationId,
    action: input.action,
    target: input.target,
    reason: input.reason ?? null,
    status: move.to,
    requestedBy: actor.userId,
    decidedBy: null,
    decidedAt: null,
    consumedAt: null,
    expiresAt: new Date(now.getTime() + APPROVAL_TTL_SECONDS * 1000),
    createdAt: now,
  };
  await inTransaction(async (tx) => {
    await insertApproval(tx, row);
    await recordAudit(tx, {
      action: move.effects.audit,
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'approval', id: row.id },
      requestId,
      data: { approval_action: input.action, target: input.target },
      at: now,
    });
  });
  return approvalView(row, now);
}

export async function decideOrganizationApproval(
  tenant: TenantActor,
  actor: SessionActor,
  approvalId: string,
  decision: ApprovalDecision,
  now: Date,
  requestId: string,
) {
  // A decision has one row, from `requested`. Who may decide is checked first (a requester learns
  // nothing about the approval by trying); whether it is still requested, by the conditional write.
  const move = onlyRowOf(APPROVAL_TRANSITIONS, decision);
  const decided = await inTransaction(async (tx) => {
    const current = await findApproval(tx, tenant.organizationId, approvalId);
    if (!current) throw serviceError('not_found', 'No such approval.');
    const byRequester = current.requestedBy === actor.userId;
    const empowersDecider = current.action === 'delegated_admins.create' && delegationApprovalMember(current.target) === tenant.membershipId;
    await passGuards(move, { byRequester, empowersDecider });
    const row = await decideApproval(tx, tenant.organizationId, approvalId, { status: move.to, decidedBy: actor.userId, now });
    // Lost to a concurrent decision, decided before, or expired: refused as what it is now.
    if (!row)
      throw APPROVAL_TRANSITIONS.unlisted(approvalStatus((await findApproval(tx, tenant.organizationId, approvalId)) ?? current, now), decision, undefined);
    await recordAudit(tx, {
      action: move.effects.audit,
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'approval', id: row.id },
      requestId,
      ...(move.effects.audit === 'approval.decided' ? { data: { decision } } : {}),
      at: now,
    });
    return row;
  });
  return approvalView(decided, now);
}
