/**
 * An approval's life in one table, with separation of duties as its guards. `expired` is computed (a
 * requested approval past its expiry, never stored); `none` is the state before it is requested. A
 * used approval stays `approved` with `consumed_at` set, which its one use (`consume`, by the gate
 * when the change goes through) checks.
 *
 * | from      | event   | guards                                                   | to        | effects                |
 * |-----------|---------|----------------------------------------------------------|-----------|------------------------|
 * | none      | request | -                                                        | requested | audit                  |
 * | requested | approve | not by its requester, not by the member it would empower | approved  | audit approval.decided |
 * | requested | reject  | not by its requester                                     | rejected  | audit approval.decided |
 * | requested | cancel  | by its requester                                         | cancelled | audit                  |
 * | approved  | consume | not used yet, not expired                                | approved  | consumed_at; audit     |
 *
 * A decision is one conditional write from `requested` (approvals.repo.ts): of two concurrent
 * deciders one wins, the other is refused with the state it finds. Separation of duties is checked
 * before the state, so a requester learns nothing from trying. Any other move is 409; a use the table
 * refuses answers `approval_required`, as the gate does.
 */
import type { AuditAction } from '@/lib/audit';
import { serviceError } from '@/lib/contract/errors';
import type { ApprovalRow, ApprovalStatus, StoredApprovalStatus } from '../approvals/approvals.repo';
import type { Guard, TransitionTable } from './table';

export type ApprovalState = 'none' | ApprovalStatus;

export interface DecisionFacts {
  byRequester: boolean;
}

/** The approval a gated change presents (already matched to the change's action and target). */
export interface UseFacts {
  approval: { action: string; target: string; consumedAt: Date | null; expiresAt: Date };
  now: Date;
}

export interface ApprovalFacts {
  request: Record<string, never>;
  /** `empowersDecider`: the approval would grant the decider's own membership (a delegated admin). */
  approve: DecisionFacts & { empowersDecider: boolean };
  reject: DecisionFacts;
  cancel: DecisionFacts;
  consume: UseFacts;
}

export type ApprovalDecision = 'approve' | 'reject' | 'cancel';

/** The state an approval is in: as stored, but a requested one past its expiry is `expired`. */
export function approvalStatus(row: Pick<ApprovalRow, 'status' | 'expiresAt'>, now: Date): ApprovalStatus {
  return row.status === 'requested' && row.expiresAt <= now ? 'expired' : row.status;
}

export interface ApprovalEffects {
  audit: Extract<AuditAction, `approval.${string}`>;
}

/** A gated change without a usable approval; says which change and target an approval must name. */
export function approvalRequired(change: { action: string; target: string }, detail: string) {
  return serviceError('approval_required', detail, { extras: { approval: { action: change.action, target: change.target } } });
}

const separationOfDuties = (detail: string) => () => serviceError('forbidden', detail, { extras: { reason: 'separation_of_duties' } });
const decidedByAnother = separationOfDuties(
  'Separation of duties: an approval is decided by another admin than its requester, and never approved by the member it would empower.',
);

const notRequester: Guard<DecisionFacts> = { says: 'not by its requester', holds: (facts) => !facts.byRequester, refusal: decidedByAnother };
// The member a delegated grant would empower does not approve it (they may still reject it).
const notEmpowered: Guard<ApprovalFacts['approve']> = {
  says: 'not by the member it would empower',
  holds: (facts) => !facts.empowersDecider,
  refusal: decidedByAnother,
};
const requester: Guard<DecisionFacts> = {
  says: 'by its requester',
  holds: (facts) => facts.byRequester,
  refusal: separationOfDuties('Only the admin who requested this approval may cancel it.'),
};

const notUsable = (facts: UseFacts | undefined) =>
  facts
    ? approvalRequired(facts.approval, 'The approval is not approved, was already used, or has expired.')
    : serviceError('approval_required', 'The approval is not approved, was already used, or has expired.');
const unused: Guard<UseFacts> = { says: 'not used yet', holds: (facts) => facts.approval.consumedAt === null, refusal: notUsable };
const unexpired: Guard<UseFacts> = { says: 'not expired', holds: (facts) => facts.approval.expiresAt > facts.now, refusal: notUsable };

export const APPROVAL_TRANSITIONS: TransitionTable<ApprovalState, StoredApprovalStatus, ApprovalFacts, ApprovalEffects> = {
  states: ['none', 'requested', 'approved', 'rejected', 'cancelled', 'expired'],
  events: ['request', 'approve', 'reject', 'cancel', 'consume'],
  rows: [
    { from: ['none'], event: 'request', guards: [], to: 'requested', effects: { audit: 'approval.requested' } },
    { from: ['requested'], event: 'approve', guards: [notRequester, notEmpowered], to: 'approved', effects: { audit: 'approval.decided' } },
    { from: ['requested'], event: 'reject', guards: [notRequester], to: 'rejected', effects: { audit: 'approval.decided' } },
    { from: ['requested'], event: 'cancel', guards: [requester], to: 'cancelled', effects: { audit: 'approval.cancelled' } },
    { from: ['approved'], event: 'consume', guards: [unused, unexpired], to: 'approved', effects: { audit: 'approval.consumed' } },
  ],
  unlisted: (state, event, facts) => {
    if (event === 'consume') return notUsable(facts as UseFacts | undefined);
    if (state === 'none') return serviceError('not_found', 'No such approval.');
    if (event === 'request') return serviceError('conflict', `This approval was already requested (${state}).`);
    const detail = state === 'expired' ? 'This approval has expired.' : `This approval was already decided (${state}).`;
    return serviceError('conflict', detail, { extras: { approval_status: state } });
  },
};
