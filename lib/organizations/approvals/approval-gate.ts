/**
 * Approvals that let a sensitive change through (an organization's `approvals.required_for` policy).
 * The change's service declares what it does (a change of GATED_CHANGES, lib/contract/approvals.ts,
 * named by its effect) and calls `passApprovalGate` inside its own transaction: when the policy names
 * that effect, the request must carry the id of an approved, unexpired, unused approval for exactly
 * this change and target, which is used up in the same transaction (a change goes through once per
 * approval; a rolled-back change leaves it unused).
 */
import { createHash } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import type { Actor } from '@/lib/contract/actor';
import { needsApproval, type GatedChange } from '@/lib/contract/approvals';
import { isUuid } from '@/lib/contract/ids';
import type { ApprovalAction, TenantActor } from '@/lib/contract/tenant';
import type { Executor } from '@/lib/db';
import { lockApproval, markApprovalConsumed } from './approvals.repo';
import { APPROVAL_TRANSITIONS, approvalRequired, approvalStatus } from '../transitions/approvals';
import { decide } from '../transitions/table';

/** Where a gated change that has no body of its own carries the id of its approved request. */
export { approvalQuery } from '../terms';

export interface GateCrossing {
  action: GatedChange;
  /** What the change is about (a membership id, a policy and its new value ...), matched exactly. */
  target: string;
  approvalId: string | undefined;
}

/**
 * What an approval to loosen the approvals policy names: the list it becomes (sorted: it is a set), so
 * an approval to take one change out cannot be spent on taking them all out.
 */
export function approvalsPolicyTarget(becomes: readonly string[]): string {
  return `approvals.required_for = ${JSON.stringify([...becomes].sort())}`;
}

/**
 * What an approval of a delegated-admin grant names: the member, the permissions and the expiry, so an
 * approval for "groups.manage until Friday" cannot be spent on every permission without an expiry.
 * Readable, since the approver decides on it: `<membership id>: <permissions> until <expiry>`.
 */
export function delegationApprovalTarget(membershipId: string, permissions: readonly string[], expiresAt: Date | null): string {
  return `${membershipId}: ${permissions.join(', ')} ${expiresAt ? `until ${expiresAt.toISOString()}` : 'without expiry'}`;
}

/** The member a delegated-admin approval would empower (the target's leading membership id). */
export function delegationApprovalMember(target: string): string {
  return target.split(':', 1)[0]!;
}

/**
 * What an approval of a high-risk agent action names: the action and a digest of exactly what is
 * registered (description, input schema), so an approval cannot be spent on another schema under the
 * same name.
 */
export function agentActionApprovalTarget(name: string, content: unknown): string {
  return `${name}@sha256:${createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 16)}`;
}

/** JSON with object keys sorted, so the same content always digests the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * `requiredFor` is the organization's `approvals.required_for` as the pipeline read it, unless the
 * caller holds a fresher one (a change to that policy reads it again under its row lock).
 */
export async function passApprovalGate(
  tx: Executor,
  tenant: TenantActor,
  actor: Actor,
  change: GateCrossing,
  now: Date,
  requestId: string,
  requiredFor: readonly ApprovalAction[] = tenant.policies.approvalsRequiredFor,
): Promise<void> {
  if (!needsApproval(change.action, requiredFor)) return;
  if (!change.approvalId) throw approvalRequired(change, 'This change needs an approved request: send its approval_id.');
  const approval = isUuid(change.approvalId) ? await lockApproval(tx, tenant.organizationId, change.approvalId) : null;
  if (!approval || approval.action !== change.action || approval.target !== change.target) {
    throw approvalRequired(change, 'The approval is not for this change.');
  }
  // Approved, not used yet, not expired: the table's `consume` (refused as the change's approval_required).
  const move = await decide(APPROVAL_TRANSITIONS, approvalStatus(approval, now), 'consume', { approval, now });
  await markApprovalConsumed(tx, approval.id, now);
  await recordAudit(tx, {
    action: move.effects.audit,
    outcome: 'success',
    actor,
    organizationId: tenant.organizationId,
    subject: { type: 'approval', id: approval.id },
    requestId,
    data: { approval_action: change.action, target: change.target },
    at: now,
  });
}
