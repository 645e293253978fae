/**
 * The changes an approval can let through, each declared by its effect. An organization lists effects
 * in `approvals.required_for` (APPROVAL_ACTIONS); a change needs an approval when the list names the
 * effect the change has, whatever path it takes. An approval names one change (`action`) and exactly
 * what it is about (`target`), so it cannot be spent on another change with a similar effect.
 *
 * `members.remove` gates every path that ends a member's access (removal, suspension). A role change
 * does not end it (the member stays in, and the role rules bound who may demote whom), so it is not
 * gated: see docs/decisions.md.
 */
import { APPROVAL_ACTIONS, type ApprovalAction } from './tenant';

interface GatedChangeDefinition {
  /** The entries of `approvals.required_for` that put this change behind an approval (any one of them). */
  gatedBy: readonly ApprovalAction[];
  /** What the approval's target names (the refusal carries the exact target to request). */
  target: string;
}

export const GATED_CHANGES = {
  // Setting a policy to a looser value takes part of it away: it needs the approval of its reset (the
  // loosest change), so the default cannot be set instead of deleting.
  'policies.delete': {
    gatedBy: ['policies.delete'],
    target: 'The policy key to reset or loosen, such as session.binding.',
  },
  // The approvals policy guards itself: while it names any change, nobody takes a change out of it (or
  // deletes it) alone, or one admin could lift a gate and then walk through it.
  'approvals.loosen': {
    gatedBy: APPROVAL_ACTIONS,
    target: 'The approvals policy as it would become, exactly as the refused change names it, such as approvals.required_for = ["members.remove"].',
  },
  'delegated_admins.create': {
    gatedBy: ['delegated_admins.create'],
    target: 'The grant exactly as the refused change names it: member id, permissions and expiry.',
  },
  'agent_actions.register_high_risk': {
    gatedBy: ['agent_actions.register_high_risk'],
    target: 'The action exactly as the refused registration names it: its name and content digest.',
  },
  'members.remove': {
    gatedBy: ['members.remove'],
    target: 'The membership id of the member to remove.',
  },
  // Suspending ends the member's access as removing does (sessions in the organization, its OAuth grants).
  'members.suspend': {
    gatedBy: ['members.remove'],
    target: 'The membership id of the member to suspend.',
  },
} as const satisfies Record<string, GatedChangeDefinition>;

export type GatedChange = keyof typeof GATED_CHANGES;
export const GATED_CHANGE_NAMES = Object.keys(GATED_CHANGES) as [GatedChange, ...GatedChange[]];

export function isGatedChange(value: string): value is GatedChange {
  return Object.hasOwn(GATED_CHANGES, value);
}

/** Whether an organization whose `approvals.required_for` is `requiredFor` puts this change behind an approval. */
export function needsApproval(change: GatedChange, requiredFor: readonly ApprovalAction[]): boolean {
  const gatedBy: readonly ApprovalAction[] = GATED_CHANGES[change].gatedBy;
  return requiredFor.some((entry) => gatedBy.includes(entry));
}
