/**
 * Organization policies through the real pipeline: the catalogue with defaults, set / replace /
 * delete, refused values, and each policy's enforcement on real requests.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { organizationPolicies } from '@/lib/db/schema';
import { signInWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, createOrganization, joinAs, PASSWORD, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();

const later = (seconds: number) => () => new Date(Date.now() + seconds * 1000);

function setPolicy(who: Person, id: string, policy_key: string, value: unknown, method: 'POST' | 'PATCH' = 'POST') {
  return asBrowser(who.browser, method, '/api/organizations/{id}/policies', { params: { id }, body: { policy_key, value } });
}

function deletePolicy(who: Person, id: string, policy_key: string) {
  return asBrowser(who.browser, 'DELETE', '/api/organizations/{id}/policies/{policy_key}', {
    params: { id, policy_key },
    headers: { 'idempotency-key': randomUUID() },
  });
}

async function policies(who: Person, id: string) {
  const response = await asBrowser(who.browser, 'GET', '/api/organizations/{id}/policies', { params: { id } });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    policies: { policy_key: string; value: unknown; default_value: unknown; is_default: boolean; updated_at: string | null }[];
    has_more: boolean;
  };
}

/** An organization owned by a fresh person, with a fresh member to feel the policies. */
async function organizationWithMember() {
  const owner = await person(mailbox, 'owner');
  const member = await person(mailbox, 'member');
  const id = await createOrganization(owner);
  await joinAs(id, member.userId, 'member');
  return { owner, member, id };
}

const read = (who: Person, id: string, options: { now?: () => Date; headers?: Record<string, string> } = {}) =>
  asBrowser(who.browser, 'GET', '/api/organizations/{id}', { params: { id }, ...options });

describe('organization policies', () => {
  it('lists every catalogue key with its default, sets, replaces and deletes back to the default', async () => {
    const { owner, member, id } = await organizationWithMember();
    const initial = await policies(member, id);
    expect(initial.policies.map((p) => p.policy_key)).toEqual([
      'session.max_age_seconds',
      'session.idle_timeout_seconds',
      'step_up.max_age_seconds',
      'signin.allowed_methods',
      'session.binding',
      'approvals.required_for',
      'applications.assigned_only',
    ]);
    expect(initial.has_more).toBe(false);
    for (const policy of initial.policies) {
      expect(policy).toMatchObject({ is_default: true, updated_at: null });
      expect(policy.value).toEqual(policy.default_value);
    }
    expect(initial.policies.find((p) => p.policy_key === 'session.binding')).toMatchObject({ value: false, default_value: false });

    // PATCH replaces only what is set.
    const notSet = await setPolicy(owner, id, 'session.max_age_seconds', 3600, 'PATCH');
    expect(notSet.status).toBe(404);

    const set = await setPolicy(owner, id, 'session.max_age_seconds', 3600);
    expect(set.status).toBe(200);
    const stored = await set.json();
    expect(stored).toMatchObject({ policy_key: 'session.max_age_seconds', value: 3600, default_value: 604800, is_default: false });
    expect(stored.updated_at).toEqual(expect.any(String));

    expect(await (await setPolicy(owner, id, 'session.max_age_seconds', 1800)).json()).toMatchObject({ value: 1800 });
    expect(await (await setPolicy(owner, id, 'session.max_age_seconds', 900, 'PATCH')).json()).toMatchObject({ value: 900, is_default: false });
    const listed = (await policies(member, id)).policies.find((p) => p.policy_key === 'session.max_age_seconds');
    expect(listed).toMatchObject({ value: 900, is_default: false });

    const removed = await deletePolicy(owner, id, 'session.max_age_seconds');
    expect(removed.status).toBe(200);
    expect(await removed.json()).toMatchObject({ policy_key: 'session.max_age_seconds', value: 604800, is_default: true, updated_at: null });
    expect((await policies(member, id)).policies.find((p) => p.policy_key === 'session.max_age_seconds')).toMatchObject({ is_default: true, value: 604800 });
    // Deleting what is not set answers the default too.
    expect((await deletePolicy(owner, id, 'session.max_age_seconds')).status).toBe(200);

    // Each change is in the organization's audit trail.
    const trail = await (await asBrowser(owner.browser, 'GET', '/api/organizations/{id}/audit-events', { params: { id } })).json();
    const policyEvents = (trail.audit_events as { action: string; data: { policy?: string } }[]).filter((e) => e.action.startsWith('policy.'));
    expect(policyEvents.map((e) => [e.action, e.data.policy])).toEqual([
      ['policy.deleted', 'session.max_age_seconds'],
      ['policy.set', 'session.max_age_seconds'],
      ['policy.set', 'session.max_age_seconds'],
      ['policy.set', 'session.max_age_seconds'],
    ]);
  });

  it('refuses unknown keys and bad values with field errors, changing nothing', async () => {
    const { owner, member, id } = await organizationWithMember();
    const unknown = await setPolicy(owner, id, 'session.forever', 1);
    expect(unknown.status).toBe(400);
    expect((await problemOf(unknown)).errors).toEqual([expect.objectContaining({ path: 'body.policy_key' })]);

    const cases: [string, unknown][] = [
      ['session.max_age_seconds', 10],
      ['session.max_age_seconds', 604801],
      ['session.max_age_seconds', '3600'],
      ['session.idle_timeout_seconds', 1.5],
      ['step_up.max_age_seconds', 5],
      ['signin.allowed_methods', []],
      ['signin.allowed_methods', ['password', 'password']],
      ['signin.allowed_methods', ['magic']],
      ['session.binding', 'yes'],
      ['approvals.required_for', ['everything']],
      ['approvals.required_for', undefined],
    ];
    for (const [key, value] of cases) {
      const response = await setPolicy(owner, id, key, value);
      expect(response.status, `${key} = ${JSON.stringify(value)}`).toBe(400);
      const problem = await problemOf(response);
      expect(problem.code).toBe('invalid_request');
      for (const error of problem.errors as { path: string }[]) expect(error.path).toMatch(/^body\.value/);
    }
    expect((await policies(owner, id)).policies.every((p) => p.is_default)).toBe(true);

    const unknownDelete = await deletePolicy(owner, id, 'session.forever');
    expect(unknownDelete.status).toBe(404);
    expect((await problemOf(unknownDelete)).code).toBe('not_found');

    // Reading is for every member; changing needs policies.manage; deleting needs an Idempotency-Key.
    const denied = await setPolicy(member, id, 'session.binding', true);
    expect(denied.status).toBe(403);
    expect(await problemOf(denied)).toMatchObject({ code: 'forbidden', permission: 'policies.manage' });
    const noKey = await asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}/policies/{policy_key}', { params: { id, policy_key: 'session.binding' } });
    expect((await problemOf(noKey)).code).toBe('idempotency_key_required');
  });
});

describe('policy enforcement on real requests', () => {
  it('session.max_age_seconds: a session older than the maximum must sign in again', async () => {
    const { owner, member, id } = await organizationWithMember();
    expect((await read(member, id, { now: later(400) })).status).toBe(200);
    expect((await setPolicy(owner, id, 'session.max_age_seconds', 300)).status).toBe(200);
    expect((await read(member, id, { now: later(200) })).status).toBe(200);
    const old = await read(member, id, { now: later(400) });
    expect(old.status).toBe(401);
    expect(await problemOf(old)).toMatchObject({ code: 'reauthentication_required', reauthentication: { reason: 'session_max_age', max_age_seconds: 300 } });
    // A fresh sign-in satisfies it again.
    const fresh = { ...member, browser: await signInWithPassword(member.email, PASSWORD) };
    expect((await read(fresh, id)).status).toBe(200);
  });

  it('session.idle_timeout_seconds: counts from the last use, not from the sign-in', async () => {
    const { owner, member, id } = await organizationWithMember();
    expect((await setPolicy(owner, id, 'session.idle_timeout_seconds', 300)).status).toBe(200);
    expect((await read(member, id, { now: later(200) })).status).toBe(200);
    // 450 s after the sign-in, but 250 s after the last use.
    expect((await read(member, id, { now: later(450) })).status).toBe(200);
    const idle = await read(member, id, { now: later(800) });
    expect(idle.status).toBe(401);
    expect(await problemOf(idle)).toMatchObject({ code: 'reauthentication_required', reauthentication: { reason: 'session_idle_timeout' } });
  });

  it('signin.allowed_methods: a password session is refused when only passkeys count', async () => {
    const { owner, member, id } = await organizationWithMember();
    expect((await setPolicy(owner, id, 'signin.allowed_methods', ['password', 'email_code'])).status).toBe(200);
    expect((await read(member, id)).status).toBe(200);
    // A password session may not set a passkey-only policy (it would shut its author out: see
    // attacks.int.test.ts); a passkey holder could. Stored as test data here.
    expect((await setPolicy(owner, id, 'signin.allowed_methods', ['passkey'])).status).toBe(409);
    await (
      await getDb()
    )
      .update(organizationPolicies)
      .set({ value: ['passkey'] })
      .where(and(eq(organizationPolicies.organizationId, id), eq(organizationPolicies.policyKey, 'signin.allowed_methods')));
    const refused = await read(member, id);
    expect(refused.status).toBe(401);
    expect(await problemOf(refused)).toMatchObject({
      code: 'reauthentication_required',
      reauthentication: { reason: 'signin_method', allowed_methods: ['passkey'] },
    });
    // The owner's own password session is bound by it as well.
    expect((await read(owner, id)).status).toBe(401);
  });

  it('session.binding: the same user agent and network pass; another device or network is refused', async () => {
    const owner = await person(mailbox, 'owner');
    const id = await createOrganization(owner);
    const member = await person(mailbox, 'member');
    await joinAs(id, member.userId, 'member');
    const device = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', 'x-forwarded-for': '198.51.100.10' };
    const bound = { ...member, browser: await signInWithPassword(member.email, PASSWORD, { headers: device }) };
    const from = (headers: Record<string, string>) => read(bound, id, { headers: { ...device, ...headers } });

    // Off by default: another device is fine.
    expect((await from({ 'user-agent': 'curl/8.0' })).status).toBe(200);
    expect((await setPolicy(owner, id, 'session.binding', true)).status).toBe(200);
    expect((await from({})).status).toBe(200);
    expect((await from({ 'x-forwarded-for': '198.51.100.77' })).status).toBe(200);
    const others: Record<string, string>[] = [{ 'user-agent': 'curl/8.0' }, { 'x-forwarded-for': '198.51.101.10' }, { 'x-forwarded-for': '203.0.113.10' }];
    for (const other of others) {
      const refused = await from(other);
      expect(refused.status, JSON.stringify(other)).toBe(401);
      expect(await problemOf(refused)).toMatchObject({ code: 'reauthentication_required', reauthentication: { reason: 'session_binding' } });
    }
  });

  it('step_up.max_age_seconds: shortens the step-up window for sensitive changes', async () => {
    const owner = await person(mailbox, 'owner');
    const id = await createOrganization(owner);
    const rename = (name: string, seconds: number) =>
      asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}', { params: { id }, body: { name }, now: later(seconds) });
    expect((await rename('Two minutes later', 120)).status).toBe(200);
    expect((await setPolicy(owner, id, 'step_up.max_age_seconds', 60)).status).toBe(200);
    expect((await rename('Thirty seconds later', 30)).status).toBe(200);
    const stale = await rename('Two minutes later again', 120);
    expect(stale.status).toBe(403);
    expect(await problemOf(stale)).toMatchObject({ code: 'step_up_required', step_up: { methods: ['password'], max_age_seconds: 60 } });
  });
});
