/**
 * Approval requests with separation of duties. One admin requests an approval for a gated change
 * (action + target); another admin approves or rejects it; the requester may cancel it. A decision is
 * taken exactly once (a conditional UPDATE, under concurrency too); an approved approval lets exactly
 * one matching change through (approval-gate.ts). Requests expire after APPROVAL_TTL_SECONDS.
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

/** An approval request stays decidable for 24 hours (and an approved one usable until the same time). */
export const APPROVAL_TTL_SECONDS = 24 * 60 * 60;

export type ApprovalDecision = 'approve' | 'reject' | 'cancel';

/**
 * The approval state machine, one row per move a person makes (state, event, guard, next state, what
 * else happens). Moves nobody makes: requested -> expired (time passes; shown, never stored) and
 * approved -> consumed (`consumed_at`, set by the gate when the change goes through).
 */
export const APPROVAL_TRANSITIONS = {
  approve: { from: 'requested', guard: 'not_requester', to: 'approved', audit: 'approval.decided' },
  reject: { from: 'requested', guard: 'not_requester', to: 'rejected', audit: 'approval.decided' },
  cancel: { from: 'requested', guard: 'requester', to: 'cancelled', audit: 'approval.cancelled' },
} as const satisfies Record<ApprovalDecision, { from: 'requested'; guard: 'requester' | 'not_requester'; to: ApprovalStatus; audit: string }>;

export function approvalStatus(row: ApprovalRow, now: Date): ApprovalStatus {
  return row.status === 'requested' && row.expiresAt <= now ? 'expired' : row.status;
}

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
  const row: ApprovalRow = {
    id: randomUUID(),
    organizationId: tenant.organizationId,
    action: input.action,
    target: input.target,
    reason: input.reason ?? null,
    status: 'requested',
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
      action: 'approval.requested',
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

function separationOfDuties(decision: ApprovalDecision): never {
  const detail =
    decision === 'cancel'
      ? 'Only the admin who requested this approval may cancel it.'
      : 'Separation of duties: an approval is decided by another admin than its requester, and never approved by the member it would empower.';
  throw serviceError('forbidden', detail, { extras: { reason: 'separation_of_duties' } });
}

export async function decideOrganizationApproval(
  tenant: TenantActor,
  actor: SessionActor,
  approvalId: string,
  decision: ApprovalDecision,
  now: Date,
  requestId: string,
) {
  const move = APPROVAL_TRANSITIONS[decision];
  const decided = await inTransaction(async (tx) => {
    const current = await findApproval(tx, tenant.organizationId, approvalId);
    if (!current) throw serviceError('not_found', 'No such approval.');
    const byRequester = current.requestedBy === actor.userId;
    if ((move.guard === 'requester') !== byRequester) separationOfDuties(decision);
    // Nor does the member a delegated grant would empower approve it (they may still reject it).
    if (decision === 'approve' && current.action === 'delegated_admins.create' && delegationApprovalMember(current.target) === tenant.membershipId)
      separationOfDuties(decision);
    const row = await decideApproval(tx, tenant.organizationId, approvalId, { status: move.to, decidedBy: actor.userId, now });
    if (!row) {
      // Lost to a concurrent decision, decided before, or expired: read what it is now.
      const status = approvalStatus((await findApproval(tx, tenant.organizationId, approvalId)) ?? current, now);
      const detail = status === 'expired' ? 'This approval has expired.' : `This approval was already decided (${status}).`;
      throw serviceError('conflict', detail, { extras: { approval_status: status } });
    }
    await recordAudit(tx, {
      action: move.audit,
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'approval', id: row.id },
      requestId,
      ...(move.audit === 'approval.decided' ? { data: { decision } } : {}),
      at: now,
    });
    return row;
  });
  return approvalView(decided, now);
}
