/**
 * The console's copies of server-side facts stay true to the server: the approval targets the inbox
 * parses to apply a request are the ones the gates write, every gated change has an answer (applied,
 * or made elsewhere), and the policy texts cover the catalogue with its real minimums.
 */
import { describe, expect, it } from 'vitest';
import type { Call } from '@/app/_components/api/use-api';
import { describeChange, parseApprovalsTarget, parseGrantTarget, redoOf, type Redo } from '@/app/console/gated-changes';
import { approvalSlot } from '@/lib/contract/client';
import type { AnyContract } from '@/lib/contract/wire';
import { formatDuration, policyText, splitDuration, durationUnits } from '@/app/console/policy-text';
import { GATED_CHANGE_NAMES } from '@/lib/contract/approvals';
import { POLICY_CATALOGUE, POLICY_KEYS } from '@/lib/contract/policies';
import { approvalsPolicyTarget, delegationApprovalTarget } from '@/lib/organizations/approvals/approval-gate';

const MEMBER = '3f0c6f8e-2b1a-4c3d-9e8f-0a1b2c3d4e5f';
const ORGANIZATION = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const APPROVAL = '0f1e2d3c-4b5a-4968-8776-655443322110';
const noNames = () => undefined;

/**
 * The call an inbox Apply makes, as the typed client receives it: which operation, with what input
 * and approved request, and where that operation takes the approval id (its contract's slot).
 */
async function madeCall(redo: Redo) {
  if (redo.kind !== 'call') throw new Error('not a change the inbox applies');
  let made: unknown = null;
  const record = (async (contract: AnyContract, input: unknown, approvalId?: string) => {
    made = { operation: contract.id, input, approvalId, slot: approvalSlot(contract) };
    return null;
  }) as Call;
  await redo.call(record, ORGANIZATION, APPROVAL);
  return made;
}

describe('approval targets the console applies', () => {
  it('reads a delegated grant back exactly as the gate wrote it, with and without expiry', () => {
    const until = new Date('2031-05-06T07:08:09.010Z');
    const withExpiry = delegationApprovalTarget(MEMBER, ['members.manage', 'groups.manage'], until);
    expect(parseGrantTarget(withExpiry)).toEqual({ membershipId: MEMBER, permissions: ['members.manage', 'groups.manage'], expiresAt: until.toISOString() });
    // Sent again, the parsed grant makes the same target, so the approval matches.
    const parsed = parseGrantTarget(withExpiry)!;
    expect(delegationApprovalTarget(parsed.membershipId, parsed.permissions, new Date(parsed.expiresAt!))).toBe(withExpiry);

    const forever = delegationApprovalTarget(MEMBER, ['audit.read'], null);
    expect(parseGrantTarget(forever)).toEqual({ membershipId: MEMBER, permissions: ['audit.read'], expiresAt: null });
    expect(parseGrantTarget('not a grant')).toBeNull();
  });

  it('reads the approvals policy a loosening makes, including the empty list', () => {
    expect(parseApprovalsTarget(approvalsPolicyTarget(['members.remove', 'policies.delete']))).toEqual(['members.remove', 'policies.delete']);
    expect(parseApprovalsTarget(approvalsPolicyTarget([]))).toEqual([]);
    expect(parseApprovalsTarget('approvals.required_for = nonsense')).toBeNull();
    expect(parseApprovalsTarget('session.binding')).toBeNull();
  });

  it('answers every gated change: a call carrying the approval id the way its operation takes it, or why not', async () => {
    const targets: Record<string, string> = {
      'members.remove': MEMBER,
      'members.suspend': MEMBER,
      'policies.delete': 'session.binding',
      'approvals.loosen': approvalsPolicyTarget([]),
      'delegated_admins.create': delegationApprovalTarget(MEMBER, ['groups.manage'], null),
      'agent_actions.register_high_risk': 'refund@sha256:0123456789abcdef',
    };
    for (const action of GATED_CHANGE_NAMES) {
      const redo = redoOf(action, targets[action]!, noNames);
      expect(redo.kind === 'call' ? redo.done : redo.why, action).not.toMatch(/does not know/);
      expect(describeChange(action, targets[action]!, noNames), action).not.toContain(`${action} on`);
    }
    expect(await madeCall(redoOf('members.suspend', MEMBER, noNames))).toEqual({
      operation: 'updateOrganizationMember',
      input: { params: { id: ORGANIZATION, member_id: MEMBER }, body: { status: 'suspended' } },
      approvalId: APPROVAL,
      slot: 'query',
    });
    const grant = redoOf('delegated_admins.create', targets['delegated_admins.create']!, noNames);
    expect(grant).toMatchObject({ kind: 'call', ownerOnly: true });
    expect(await madeCall(grant)).toEqual({
      operation: 'createOrganizationDelegatedAdmin',
      input: { params: { id: ORGANIZATION }, body: { membership_id: MEMBER, permissions: ['groups.manage'] } },
      approvalId: APPROVAL,
      slot: 'body',
    });
    expect(redoOf('agent_actions.register_high_risk', targets['agent_actions.register_high_risk']!, noNames).kind).toBe('elsewhere');
  });
});

describe('policy texts', () => {
  it('name every catalogue policy, and edit durations within the catalogue minimum', () => {
    for (const key of POLICY_KEYS) {
      const text = policyText(key, 'api description');
      expect(text.kind, key).not.toBeNull();
      expect(text.name, key).not.toBe(key);
      const definition = POLICY_CATALOGUE[key];
      expect(text.kind?.type === 'duration', key).toBe(typeof definition.defaultValue() === 'number');
      if (text.kind?.type !== 'duration') continue;
      expect(definition.schema().safeParse(text.kind.minSeconds).success, key).toBe(true);
      expect(definition.schema().safeParse(text.kind.minSeconds - 1).success, key).toBe(false);
    }
  });

  it('say durations in units and split them into the largest exact one', () => {
    expect(formatDuration(604_800)).toBe('7 days');
    expect(formatDuration(5_400)).toBe('1 hour 30 minutes');
    expect(formatDuration(30)).toBe('30 seconds');
    const units = durationUnits(300);
    expect(units.map((unit) => unit.label)).toEqual(['days', 'hours', 'minutes']);
    expect(durationUnits(30).map((unit) => unit.label)).toContain('seconds');
    expect(splitDuration(604_800, units)).toEqual({ amount: 7, unit: 86_400 });
    expect(splitDuration(7_200, units)).toEqual({ amount: 2, unit: 3_600 });
    expect(splitDuration(90, units)).toEqual({ amount: 1.5, unit: 60 });
  });
});
