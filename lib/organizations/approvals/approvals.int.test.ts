/**
 * Approvals through the real pipeline: the state machine row by row (APPROVAL_TRANSITIONS), separation
 * of duties, exactly one decision under concurrency, expiry, and the gate on a policy deletion.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, createOrganization, joinAs, person, type Person } from '@/tests/helpers/organizations';
import { APPROVAL_TTL_SECONDS } from './approvals';

const mailbox = useMailbox();

interface Approval {
  id: string;
  status: string;
  requested_by: string;
  decided_by: string | null;
  decided_at: string | null;
  consumed_at: string | null;
  expires_at: string;
  created_at: string;
}

/** An owner and two more admins in a fresh organization. */
async function admins() {
  const ada = await person(mailbox, 'ada');
  const bob = await person(mailbox, 'bob');
  const cy = await person(mailbox, 'cy');
  const id = await createOrganization(ada);
  await joinAs(id, bob.userId, 'admin');
  await joinAs(id, cy.userId, 'admin');
  return { ada, bob, cy, id };
}

function request(who: Person, id: string, body: Record<string, unknown>, now?: () => Date) {
  return asBrowser(who.browser, 'POST', '/api/organizations/{id}/approvals', { params: { id }, body, now });
}

async function requested(who: Person, id: string, action = 'policies.delete', target = 'session.binding'): Promise<Approval> {
  const response = await request(who, id, { action, target, reason: 'Cleaning up' });
  expect(response.status).toBe(201);
  return (await response.json()) as Approval;
}

function decide(who: Person, id: string, approval_id: string, decision: string) {
  return asBrowser(who.browser, 'POST', '/api/organizations/{id}/approvals/{approval_id}', { params: { id, approval_id }, body: { decision } });
}

async function listed(who: Person, id: string, query = ''): Promise<Approval[]> {
  const response = await asBrowser(who.browser, 'GET', '/api/organizations/{id}/approvals', { params: { id }, query });
  expect(response.status).toBe(200);
  return ((await response.json()) as { approvals: Approval[] }).approvals;
}

const deletePolicy = (who: Person, id: string, policy_key: string, approvalId?: string) =>
  asBrowser(who.browser, 'DELETE', '/api/organizations/{id}/policies/{policy_key}', {
    params: { id, policy_key },
    query: approvalId ? `approval_id=${approvalId}` : undefined,
    headers: { 'idempotency-key': randomUUID() },
  });

const setPolicy = (who: Person, id: string, policy_key: string, value: unknown, approvalId?: string) =>
  asBrowser(who.browser, 'POST', '/api/organizations/{id}/policies', {
    params: { id },
    body: { policy_key, value },
    query: approvalId ? `approval_id=${approvalId}` : undefined,
  });

describe('approval requests', () => {
  it('are requested for 24 hours, validated, and listed for admins only', async () => {
    const { ada, id } = await admins();
    const approval = await requested(ada, id);
    expect(approval).toMatchObject({
      action: 'policies.delete',
      target: 'session.binding',
      reason: 'Cleaning up',
      status: 'requested',
      requested_by: ada.userId,
      decided_by: null,
      consumed_at: null,
    });
    expect(Date.parse(approval.expires_at) - Date.parse(approval.created_at)).toBe(APPROVAL_TTL_SECONDS * 1000);
    expect((await listed(ada, id)).map((a) => a.id)).toEqual([approval.id]);

    for (const body of [
      { action: 'everything', target: 'x' },
      { action: 'policies.delete', target: '' },
      { action: 'policies.delete', target: 'x'.repeat(401) },
      { action: 'members.remove', target: 'x', reason: 'r'.repeat(501) },
    ]) {
      expect((await request(ada, id, body)).status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }

    const member = await person(mailbox, 'member');
    await joinAs(id, member.userId, 'member');
    const denied = await asBrowser(member.browser, 'GET', '/api/organizations/{id}/approvals', { params: { id } });
    expect(await problemOf(denied)).toMatchObject({ code: 'forbidden', permission: 'approvals.decide' });
  });

  it('walks the state machine: the requester never decides, only the requester cancels, a decision is final', async () => {
    const { ada, bob, id } = await admins();
    const first = await requested(ada, id);
    for (const decision of ['approve', 'reject']) {
      const own = await decide(ada, id, first.id, decision);
      expect(own.status).toBe(403);
      expect(await problemOf(own)).toMatchObject({ code: 'forbidden', reason: 'separation_of_duties' });
    }
    const notTheirs = await decide(bob, id, first.id, 'cancel');
    expect(notTheirs.status).toBe(403);

    const approved = await decide(bob, id, first.id, 'approve');
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ id: first.id, status: 'approved', decided_by: bob.userId, decided_at: expect.any(String) });
    const again = await decide(bob, id, first.id, 'reject');
    expect(again.status).toBe(409);
    expect(await problemOf(again)).toMatchObject({ code: 'conflict', approval_status: 'approved' });

    const second = await requested(ada, id);
    expect(await (await decide(bob, id, second.id, 'reject')).json()).toMatchObject({ status: 'rejected', decided_by: bob.userId });

    const third = await requested(ada, id);
    expect(await (await decide(ada, id, third.id, 'cancel')).json()).toMatchObject({ status: 'cancelled', decided_by: ada.userId });
    expect((await decide(bob, id, third.id, 'approve')).status).toBe(409);

    expect((await listed(bob, id, 'status=cancelled')).map((a) => a.id)).toEqual([third.id]);
    expect((await listed(bob, id, 'status=rejected')).map((a) => a.id)).toEqual([second.id]);
    expect((await listed(bob, id)).map((a) => a.id)).toEqual([third.id, second.id, first.id]);

    // Unknown ids and other organizations' approvals are not found.
    expect((await decide(bob, id, randomUUID(), 'approve')).status).toBe(404);
    const other = await person(mailbox, 'other');
    const otherId = await createOrganization(other);
    await joinAs(otherId, bob.userId, 'admin');
    expect((await decide(bob, otherId, first.id, 'approve')).status).toBe(404);

    const trail = await (await asBrowser(ada.browser, 'GET', '/api/organizations/{id}/audit-events', { params: { id }, query: 'limit=100' })).json();
    const approvalEvents = trail.audit_events
      .filter((e: { action: string }) => e.action.startsWith('approval.'))
      .map((e: { action: string; data: object }) => [e.action, e.data]);
    expect(approvalEvents).toEqual([
      ['approval.cancelled', {}],
      ['approval.requested', { approval_action: 'policies.delete', target: 'session.binding' }],
      ['approval.decided', { decision: 'reject' }],
      ['approval.requested', { approval_action: 'policies.delete', target: 'session.binding' }],
      ['approval.decided', { decision: 'approve' }],
      ['approval.requested', { approval_action: 'policies.delete', target: 'session.binding' }],
    ]);
  });

  it('is decided exactly once when two admins decide at the same time', async () => {
    const { ada, bob, cy, id } = await admins();
    for (const [bobSays, cySays] of [
      ['approve', 'approve'],
      ['approve', 'reject'],
    ]) {
      const approval = await requested(ada, id);
      const answers = await Promise.all([decide(bob, id, approval.id, bobSays!), decide(cy, id, approval.id, cySays!)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = (await answers.find((a) => a.status === 200)!.json()) as Approval;
      const [stored] = (await listed(ada, id)).filter((a) => a.id === approval.id);
      expect(stored).toMatchObject({ status: winner.status, decided_by: winner.decided_by });
    }
  });

  it('expires: a requested approval past its expiry shows as expired and can no longer be decided', async () => {
    const { ada, bob, id } = await admins();
    // Requested 24 hours and a minute ago (the step-up of a fresh sign-in is still recent then).
    const response = await request(
      ada,
      id,
      { action: 'members.remove', target: randomUUID() },
      () => new Date(Date.now() - (APPROVAL_TTL_SECONDS + 60) * 1000),
    );
    expect(response.status).toBe(201);
    const approval = (await response.json()) as Approval;
    expect((await listed(bob, id, 'status=expired')).map((a) => a.id)).toEqual([approval.id]);
    expect(await listed(bob, id, 'status=requested')).toEqual([]);
    const late = await decide(bob, id, approval.id, 'approve');
    expect(late.status).toBe(409);
    expect(await problemOf(late)).toMatchObject({ code: 'conflict', approval_status: 'expired' });
    expect((await decide(ada, id, approval.id, 'cancel')).status).toBe(409);
  });
});

describe('the approval gate (approvals.required_for)', () => {
  it('lets a gated policy deletion through once, with an approval another admin approved', async () => {
    const { ada, bob, id } = await admins();
    expect((await setPolicy(ada, id, 'session.max_age_seconds', 3600)).status).toBe(200);
    // Not gated until the organization says so.
    expect((await deletePolicy(ada, id, 'session.max_age_seconds')).status).toBe(200);
    expect((await setPolicy(ada, id, 'session.max_age_seconds', 3600)).status).toBe(200);
    expect((await setPolicy(ada, id, 'approvals.required_for', ['policies.delete'])).status).toBe(200);

    const unapproved = await deletePolicy(ada, id, 'session.max_age_seconds');
    expect(unapproved.status).toBe(403);
    expect(await problemOf(unapproved)).toMatchObject({
      code: 'approval_required',
      approval: { action: 'policies.delete', target: 'session.max_age_seconds' },
    });

    // An approval for another target, or one not approved yet, does not count.
    const elsewhere = await requested(ada, id, 'policies.delete', 'session.binding');
    expect((await decide(bob, id, elsewhere.id, 'approve')).status).toBe(200);
    expect((await deletePolicy(ada, id, 'session.max_age_seconds', elsewhere.id)).status).toBe(403);
    const approval = await requested(ada, id, 'policies.delete', 'session.max_age_seconds');
    expect((await deletePolicy(ada, id, 'session.max_age_seconds', approval.id)).status).toBe(403);
    expect((await decide(bob, id, approval.id, 'approve')).status).toBe(200);

    const approved = await deletePolicy(ada, id, 'session.max_age_seconds', approval.id);
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ policy_key: 'session.max_age_seconds', is_default: true });
    const [consumed] = (await listed(bob, id)).filter((a) => a.id === approval.id);
    expect(consumed!.consumed_at).toEqual(expect.any(String));

    // Used up: the same approval lets nothing else through.
    expect((await setPolicy(ada, id, 'session.max_age_seconds', 1800)).status).toBe(200);
    const reused = await deletePolicy(ada, id, 'session.max_age_seconds', approval.id);
    expect(reused.status).toBe(403);
    expect((await problemOf(reused)).code).toBe('approval_required');
    expect(
      (
        (await (await asBrowser(ada.browser, 'GET', '/api/organizations/{id}/policies', { params: { id } })).json()).policies as {
          policy_key: string;
          value: unknown;
        }[]
      ).find((p) => p.policy_key === 'session.max_age_seconds')!.value,
    ).toBe(1800);
  });

  it('gates taking actions out of approvals.required_for, naming the list it becomes', async () => {
    const { ada, bob, id } = await admins();
    expect((await setPolicy(ada, id, 'approvals.required_for', ['policies.delete'])).status).toBe(200);
    // Adding is not gated; taking away is.
    expect((await setPolicy(ada, id, 'approvals.required_for', ['policies.delete', 'members.remove'])).status).toBe(200);
    const lifted = await setPolicy(ada, id, 'approvals.required_for', ['members.remove']);
    expect(lifted.status).toBe(403);
    expect(await problemOf(lifted)).toMatchObject({
      code: 'approval_required',
      approval: { action: 'approvals.loosen', target: 'approvals.required_for = ["members.remove"]' },
    });
    expect(await problemOf(await deletePolicy(ada, id, 'approvals.required_for'))).toMatchObject({
      code: 'approval_required',
      approval: { action: 'approvals.loosen', target: 'approvals.required_for = []' },
    });

    const approval = await requested(ada, id, 'approvals.loosen', 'approvals.required_for = ["members.remove"]');
    expect((await decide(bob, id, approval.id, 'approve')).status).toBe(200);
    expect(await (await setPolicy(ada, id, 'approvals.required_for', ['members.remove'], approval.id)).json()).toMatchObject({ value: ['members.remove'] });
  });
});
