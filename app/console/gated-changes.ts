/**
 * The changes an organization can put behind an approval (lib/contract/approvals.ts), as the console
 * names them and redoes them. An approval request holds only `action` and `target`; for each action,
 * `appliedBy` says which change the target alone describes completely, so the approvals inbox can
 * perform it with the request's id, and where it cannot, why (docs/decisions.md, "Applying approved
 * requests from the console").
 */
import type { GatedChange } from '@/lib/contract/approvals';
import type { Permission } from '@/lib/contract/permissions';
import type { PolicyKey } from '@/lib/contract/policy-keys';
import { CONTRACTS } from '@/lib/http/contracts';
import type { Call } from '../_components/api/use-api';
import type { ApiResult } from '../_components/auth/api';
import { APPROVAL_ENTRY_LABELS, policyName } from './policy-text';

/**
 * The change as a call by contract in the organization, made with the approved request's id (where
 * the id travels is the contract's approval slot).
 */
export type GatedCall = (call: Call, organizationId: string, approvalId: string) => Promise<ApiResult | null>;

export interface RedoCall {
  kind: 'call';
  call: GatedCall;
  /** What the change's operation requires (the API has the last word): who may apply the request. */
  permission: Permission;
  ownerOnly?: boolean;
  /** What was done, for the status line. */
  done: string;
  /** What applying does not cover, said beside the button. */
  note?: string;
}

export type Redo = RedoCall | { kind: 'elsewhere'; why: string };

/** Names people read for the ids in targets: members by membership id. */
export type NameOf = (id: string) => string | undefined;

const APPROVALS_POLICY = 'approvals.required_for' satisfies PolicyKey;
const APPROVALS_PREFIX = `${APPROVALS_POLICY} = `;

/** `approvals.required_for = ["members.remove"]` (approvalsPolicyTarget): the list the policy becomes. */
export function parseApprovalsTarget(target: string): string[] | null {
  if (!target.startsWith(APPROVALS_PREFIX)) return null;
  try {
    const list: unknown = JSON.parse(target.slice(APPROVALS_PREFIX.length));
    return Array.isArray(list) && list.every((item) => typeof item === 'string') ? list : null;
  } catch {
    return null;
  }
}

export interface GrantTarget {
  membershipId: string;
  permissions: string[];
  expiresAt: string | null;
}

/** `<membership id>: <permissions, ...> until <ISO instant>` or `... without expiry` (delegationApprovalTarget). */
export function parseGrantTarget(target: string): GrantTarget | null {
  const match = /^([^:\s]+): (.+) (?:until (\S+)|without expiry)$/.exec(target);
  if (!match) return null;
  const expiresAt = match[3] ?? null;
  if (expiresAt !== null && Number.isNaN(Date.parse(expiresAt))) return null;
  return { membershipId: match[1]!, permissions: match[2]!.split(', '), expiresAt };
}

/** The change an approved request lets through, ready to perform, or where it has to be made instead. */
export function redoOf(action: string, target: string, nameOf: NameOf): Redo {
  const who = nameOf(target) ?? target;
  switch (action as GatedChange) {
    case 'members.remove':
      return {
        kind: 'call',
        call: (call, id, approvalId) => call(CONTRACTS.revokeOrganizationMember, { params: { id, member_id: target } }, approvalId),
        permission: 'members.manage',
        done: `${who} was removed from the organization.`,
      };
    case 'members.suspend':
      return {
        kind: 'call',
        call: (call, id, approvalId) =>
          call(CONTRACTS.updateOrganizationMember, { params: { id, member_id: target }, body: { status: 'suspended' } }, approvalId),
        permission: 'members.manage',
        done: `${who} is suspended.`,
      };
    case 'policies.delete':
      // The target is the key only: the approval also allows loosening the policy to any value, but
      // which value was wanted is not in the request, so the inbox performs the reset the request names.
      return {
        kind: 'call',
        // A key the catalogue does not know is the API's to refuse.
        call: (call, id, approvalId) => call(CONTRACTS.deleteOrganizationPolicy, { params: { id, policy_key: target as PolicyKey } }, approvalId),
        permission: 'policies.manage',
        done: `${policyName(target) ?? target} is back to its default.`,
        note: 'Apply resets the policy to its default. To loosen it to another value instead, save that value in Policies: the approval is used then.',
      };
    case 'approvals.loosen': {
      const list = parseApprovalsTarget(target);
      if (!list) return { kind: 'elsewhere', why: 'This request does not name the approvals policy as the console knows it: change the policy in Policies.' };
      return {
        kind: 'call',
        call: (call, id, approvalId) =>
          call(CONTRACTS.setOrganizationPolicy, { params: { id }, body: { policy_key: APPROVALS_POLICY, value: list } }, approvalId),
        permission: 'policies.manage',
        done: `${policyName(APPROVALS_POLICY)} is now ${approvalEntries(list)}.`,
      };
    }
    case 'delegated_admins.create': {
      const grant = parseGrantTarget(target);
      if (!grant) return { kind: 'elsewhere', why: 'This request does not name a grant as the console knows it: grant it in Delegated admins.' };
      // Permissions outside the catalogue are the API's to refuse.
      const permissions = grant.permissions as Permission[];
      const body = { membership_id: grant.membershipId, permissions, ...(grant.expiresAt ? { expires_at: grant.expiresAt } : {}) };
      return {
        kind: 'call',
        call: (call, id, approvalId) => call(CONTRACTS.createOrganizationDelegatedAdmin, { params: { id }, body }, approvalId),
        permission: 'delegations.manage',
        ownerOnly: true,
        done: `${nameOf(grant.membershipId) ?? grant.membershipId} now holds ${grant.permissions.join(', ')}.`,
      };
    }
    case 'agent_actions.register_high_risk':
      return {
        kind: 'elsewhere',
        why: 'The request holds the action’s name and a digest of its description and input schema, not the content itself: register the action again in the Action catalog with exactly the same content, and the approval is used then.',
      };
    default:
      return { kind: 'elsewhere', why: 'The console does not know this kind of change: make it where it is made, and the approval is used then.' };
  }
}

function approvalEntries(list: readonly string[]): string {
  if (list.length === 0) return 'none';
  return list.map((entry) => APPROVAL_ENTRY_LABELS[entry as keyof typeof APPROVAL_ENTRY_LABELS] ?? entry).join(', ');
}

function expiry(at: string | null): string {
  return at ? `until ${new Date(at).toLocaleString()}` : 'without expiry';
}

/** What a request asks for, in a sentence ("Remove jo@example.com from the organization"). */
export function describeChange(action: string, target: string, nameOf: NameOf): string {
  switch (action as GatedChange) {
    case 'members.remove':
      return `Remove ${nameOf(target) ?? target} from the organization`;
    case 'members.suspend':
      return `Suspend ${nameOf(target) ?? target}`;
    case 'policies.delete':
      return `Reset or loosen the policy “${policyName(target) ?? target}”`;
    case 'approvals.loosen': {
      const list = parseApprovalsTarget(target);
      return list ? `Change “${policyName(APPROVALS_POLICY)}” to: ${approvalEntries(list)}` : `Loosen the approvals policy (${target})`;
    }
    case 'delegated_admins.create': {
      const grant = parseGrantTarget(target);
      return grant
        ? `Grant ${nameOf(grant.membershipId) ?? grant.membershipId} ${grant.permissions.join(', ')} ${expiry(grant.expiresAt)}`
        : `Grant delegated admin permissions (${target})`;
    }
    case 'agent_actions.register_high_risk':
      return `Register the high-risk agent action “${target.split('@sha256:', 1)[0]}”`;
    default:
      return `${action} on ${target}`;
  }
}
