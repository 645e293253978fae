/**
 * The approval gate cannot be walked around, through the real pipeline: a change with the effect the
 * organization put behind an approval needs one whatever path it takes (suspending a member is gated by
 * `members.remove` like removing them), and the approvals policy guards itself (nothing is taken out of
 * a non-empty `approvals.required_for`, nor is it deleted, without an approval). Each approval is
 * approved by another admin, used once, and only for the change and target it names.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, createOrganization, joinAs, membershipOf, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50' });
const MEMBER = '/api/organizations/{id}/members/{member_id}';
const POLICIES = '/api/organizations/{id}/policies';

/** An owner, two admins (one acts, the other approves) and a plain member, in a fresh organization. */
async function organization() {
  const ada = await person(mailbox, 'ada');
  const bob = await person(mailbox, 'bob');
  const cy = await person(mailbox, 'cy');
  const dee = await person(mailbox, 'dee');
  const id = await createOrganization(ada);
  await joinAs(id, bob.userId, 'admin');
  await joinAs(id, cy.userId, 'admin');
  const deeMembership = await joinAs(id, dee.userId, 'member');
  return { ada, bob, cy, dee, deeMembership, id };
}

const withApproval = (approvalId?: string) => (approvalId ? `approval_id=${approvalId}` : undefined);

const patchMember = (who: Person, id: string, member_id: string, body: unknown, approvalId?: string) =>
  asBrowser(who.browser, 'PATCH', MEMBER, { params: { id, member_id }, body, query: withApproval(approvalId) });

const removeMember = (who: Person, id: string, member_id: string, approvalId?: string) =>
  asBrowser(who.browser, 'DELETE', MEMBER, { params: { id, member_id }, query: withApproval(approvalId) });

const setPolicy = (who: Person, id: string, method: 'POST' | 'PATCH', policy_key: string, value: unknown, approvalId?: string) =>
  asBrowser(who.browser, method, POLICIES, { params: { id }, body: { policy_key, value }, query: withApproval(approvalId) });

const deletePolicy = (who: Person, id: string, policy_key: string, approvalId?: string) =>
  asBrowser(who.browser, 'DELETE', `${POLICIES}/{policy_key}`, {
    params: { id, policy_key },
    query: withApproval(approvalId),
    headers: { 'idempotency-key': randomUUID() },
  });

async function requiredFor(who: Person, id: string): Promise<unknown> {
  const { policies } = (await (await asBrowser(who.browser, 'GET', POLICIES, { params: { id } })).json()) as {
    policies: { policy_key: string; value: unknown }[];
  };
  return policies.find((policy) => policy.policy_key === 'approvals.required_for')!.value;
}

/** `requester` asks for an approval of exactly this change; `approver` (another admin) approves it. */
async function approved(requester: Person, approver: Person, id: string, action: string, target: string): Promise<string> {
  const requested = await asBrowser(requester.browser, 'POST', '/api/organizations/{id}/approvals', {
    params: { id },
    body: { action, target, reason: 'Reviewed' },
  });
  expect(requested.status).toBe(201);
  const approvalId = ((await requested.json()) as { id: string }).id;
  // Separation of duties: the requester cannot approve it themselves.
  const own = await asBrowser(requester.browser, 'POST', '/api/organizations/{id}/approvals/{approval_id}', {
    params: { id, approval_id: approvalId },
    body: { decision: 'approve' },
  });
  expect(await problemOf(own)).toMatchObject({ code: 'forbidden', reason: 'separation_of_duties' });
  const decided = await asBrowser(approver.browser, 'POST', '/api/organizations/{id}/approvals/{approval_id}', {
    params: { id, approval_id: approvalId },
    body: { decision: 'approve' },
  });
  expect(decided.status).toBe(200);
  return approvalId;
}

async function consumedAt(who: Person, id: string, approvalId: string): Promise<string | null> {
  const { approvals } = (await (
    await asBrowser(who.browser, 'GET', '/api/organizations/{id}/approvals', { params: { id }, query: 'status=approved' })
  ).json()) as {
    approvals: { id: string; consumed_at: string | null }[];
  };
  return approvals.find((approval) => approval.id === approvalId)!.consumed_at;
}

describe('a change with the effect of a gated one is gated alike', () => {
  it('suspending a member needs a members.suspend approval when members.remove is required, and a removal approval does not count for it', async () => {
    const { bob, cy, dee, deeMembership, id } = await organization();
    // Free while the organization gates other changes only.
    expect((await setPolicy(bob, id, 'POST', 'approvals.required_for', ['policies.delete'])).status).toBe(200);
    expect((await patchMember(bob, id, deeMembership, { status: 'suspended' })).status).toBe(200);
    expect((await patchMember(bob, id, deeMembership, { status: 'active' })).status).toBe(200);
    expect((await setPolicy(bob, id, 'POST', 'approvals.required_for', ['policies.delete', 'members.remove'])).status).toBe(200);

    const refused = await patchMember(bob, id, deeMembership, { status: 'suspended' });
    expect(refused.status).toBe(403);
    expect(await problemOf(refused)).toMatchObject({ code: 'approval_required', approval: { action: 'members.suspend', target: deeMembership } });
    expect((await membershipOf(id, dee.userId)).status).toBe('active');

    // An approval to remove the member is for another change: it does not suspend them.
    const removal = await approved(bob, cy, id, 'members.remove', deeMembership);
    expect((await problemOf(await patchMember(bob, id, deeMembership, { status: 'suspended' }, removal))).code).toBe('approval_required');
    expect((await membershipOf(id, dee.userId)).status).toBe('active');

    const suspension = await approved(bob, cy, id, 'members.suspend', deeMembership);
    const suspended = await patchMember(bob, id, deeMembership, { status: 'suspended' }, suspension);
    expect(suspended.status).toBe(200);
    expect(await suspended.json()).toMatchObject({ id: deeMembership, status: 'suspended' });
    expect(await consumedAt(bob, id, suspension)).toEqual(expect.any(String));

    // Re-activating gives access back: not gated. The used approval does not suspend again.
    expect((await patchMember(bob, id, deeMembership, { status: 'active' })).status).toBe(200);
    expect((await problemOf(await patchMember(bob, id, deeMembership, { status: 'suspended' }, suspension))).code).toBe('approval_required');
    expect((await membershipOf(id, dee.userId)).status).toBe('active');

    // The removal approval was left unused by the refused suspension, and still removes.
    expect(await consumedAt(bob, id, removal)).toBeNull();
    expect((await removeMember(bob, id, deeMembership, removal)).status).toBe(200);
    expect((await membershipOf(id, dee.userId)).status).toBe('revoked');
  });
});

describe('the approvals policy guards itself', () => {
  it('while it names anything, emptying it by POST, PATCH or DELETE needs an approval, so a gated removal cannot follow alone', async () => {
    const { bob, cy, deeMembership, id } = await organization();
    // Only members.remove: policies.delete is not listed, and still the list guards itself.
    expect((await setPolicy(bob, id, 'POST', 'approvals.required_for', ['members.remove'])).status).toBe(200);

    for (const lifted of [
      await setPolicy(bob, id, 'PATCH', 'approvals.required_for', []),
      await setPolicy(bob, id, 'POST', 'approvals.required_for', []),
      await deletePolicy(bob, id, 'approvals.required_for'),
    ]) {
      expect(lifted.status).toBe(403);
      expect(await problemOf(lifted)).toMatchObject({
        code: 'approval_required',
        approval: { action: 'approvals.loosen', target: 'approvals.required_for = []' },
      });
    }
    expect(await requiredFor(bob, id)).toEqual(['members.remove']);
    expect((await problemOf(await removeMember(bob, id, deeMembership))).code).toBe('approval_required');

    // With an approval another admin gave for exactly this: the policy goes, once.
    const lifting = await approved(bob, cy, id, 'approvals.loosen', 'approvals.required_for = []');
    const deleted = await deletePolicy(bob, id, 'approvals.required_for', lifting);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ policy_key: 'approvals.required_for', value: [], is_default: true });
    expect(await consumedAt(bob, id, lifting)).toEqual(expect.any(String));
    expect((await removeMember(bob, id, deeMembership)).status).toBe(200);
  });

  it('tightening is free; an approval to take one change out cannot take out more', async () => {
    const { bob, cy, id } = await organization();
    expect((await setPolicy(bob, id, 'POST', 'approvals.required_for', ['members.remove'])).status).toBe(200);
    expect((await setPolicy(bob, id, 'PATCH', 'approvals.required_for', ['members.remove', 'delegated_admins.create'])).status).toBe(200);

    const refused = await setPolicy(bob, id, 'PATCH', 'approvals.required_for', ['delegated_admins.create']);
    expect(await problemOf(refused)).toMatchObject({
      code: 'approval_required',
      approval: { action: 'approvals.loosen', target: 'approvals.required_for = ["delegated_admins.create"]' },
    });

    const dropOne = await approved(bob, cy, id, 'approvals.loosen', 'approvals.required_for = ["delegated_admins.create"]');
    expect((await problemOf(await setPolicy(bob, id, 'PATCH', 'approvals.required_for', [], dropOne))).code).toBe('approval_required');
    expect((await problemOf(await deletePolicy(bob, id, 'approvals.required_for', dropOne))).code).toBe('approval_required');
    // Nor does an approval to delete the policy: it names no value, so it is not for this change.
    const deletion = await approved(bob, cy, id, 'policies.delete', 'approvals.required_for');
    expect((await problemOf(await deletePolicy(bob, id, 'approvals.required_for', deletion))).code).toBe('approval_required');
    expect(await requiredFor(bob, id)).toEqual(['members.remove', 'delegated_admins.create']);

    expect(await (await setPolicy(bob, id, 'PATCH', 'approvals.required_for', ['delegated_admins.create'], dropOne)).json()).toMatchObject({
      value: ['delegated_admins.create'],
    });
    // Used up: after the list is tightened again, the same approval does not take the same change out twice.
    expect((await setPolicy(bob, id, 'PATCH', 'approvals.required_for', ['delegated_admins.create', 'members.remove'])).status).toBe(200);
    expect((await problemOf(await setPolicy(bob, id, 'PATCH', 'approvals.required_for', ['delegated_admins.create'], dropOne))).code).toBe('approval_required');
    expect(await requiredFor(bob, id)).toEqual(['delegated_admins.create', 'members.remove']);
  });
});
