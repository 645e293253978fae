/**
 * The organization audit trail through the real pipeline: tenant-bound, newest first, filtered,
 * keyset-paged.
 */
import { describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, createOrganization, joinAs, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();

interface AuditEvent {
  id: string;
  action: string;
  outcome: string;
  actor: { type: string; id: string | null };
  subject: { type: string; id: string | null } | null;
  request_id: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

interface Trail {
  audit_events: AuditEvent[];
  has_more: boolean;
  next_cursor: string | null;
}

function trail(who: Person, id: string, query = '') {
  return asBrowser(who.browser, 'GET', '/api/organizations/{id}/audit-events', { params: { id }, query });
}

async function events(who: Person, id: string, query = ''): Promise<AuditEvent[]> {
  const response = await trail(who, id, query);
  expect(response.status).toBe(200);
  return ((await response.json()) as Trail).audit_events;
}

const setPolicy = (who: Person, id: string, policy_key: string, value: unknown, at?: Date) =>
  asBrowser(who.browser, 'POST', '/api/organizations/{id}/policies', { params: { id }, body: { policy_key, value }, now: at ? () => at : undefined });

describe('organization audit events', () => {
  it("shows only the organization's own events, newest first, to members with audit.read", async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const acme = await createOrganization(ada, 'Acme');
    const globex = await createOrganization(bob, 'Globex');
    await joinAs(acme, bob.userId, 'admin');
    expect((await setPolicy(ada, acme, 'session.binding', true)).status).toBe(200);
    expect((await setPolicy(bob, acme, 'session.idle_timeout_seconds', 3600)).status).toBe(200);
    expect((await setPolicy(bob, globex, 'session.binding', true)).status).toBe(200);

    const own = await events(ada, acme);
    expect(own.map((e) => [e.action, e.actor.id])).toEqual([
      ['policy.set', bob.userId],
      ['policy.set', ada.userId],
      ['organization.created', ada.userId],
    ]);
    expect(own[0]).toEqual({
      id: expect.any(String),
      action: 'policy.set',
      outcome: 'success',
      actor: { type: 'session', id: bob.userId, name: bob.email },
      // A policy is named by its key: no other name.
      subject: { type: 'policy', id: 'session.idle_timeout_seconds', name: null },
      request_id: expect.any(String),
      data: { policy: 'session.idle_timeout_seconds' },
      created_at: expect.any(String),
    });
    // Globex's events (bob's own organization) never show in Acme's trail, and the other way round.
    const other = await events(bob, globex);
    expect(other.map((e) => e.action)).toEqual(['policy.set', 'organization.created']);
    expect(other.map((e) => e.id).filter((eventId) => own.some((e) => e.id === eventId))).toEqual([]);
    // A non-member gets the tenant 404; a plain member reads (audit.read comes with the member role).
    expect((await trail(ada, globex)).status).toBe(404);
    const member = await person(mailbox, 'member');
    await joinAs(acme, member.userId, 'member');
    expect((await events(member, acme)).length).toBe(3);
  });

  it('filters by action, actor and an inclusive time range', async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    await joinAs(id, bob.userId, 'admin');
    const t = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
    // Pinned times within the step-up window of a fresh sign-in (a clock behind the sign-in passes).
    expect((await setPolicy(ada, id, 'session.binding', true, t(1))).status).toBe(200);
    expect((await setPolicy(bob, id, 'session.binding', false, t(2))).status).toBe(200);
    expect((await setPolicy(ada, id, 'session.idle_timeout_seconds', 3600, t(3))).status).toBe(200);

    expect((await events(ada, id, 'action=policy.set')).map((e) => e.created_at)).toEqual([t(3), t(2), t(1)].map((d) => d.toISOString()));
    expect((await events(ada, id, 'action=organization.created')).length).toBe(1);
    expect(await events(ada, id, 'action=policy.deleted')).toEqual([]);
    expect((await events(ada, id, `actor_id=${bob.userId}`)).map((e) => e.created_at)).toEqual([t(2).toISOString()]);
    const range = (from: Date, to: Date) => `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
    expect((await events(ada, id, range(t(1), t(2)))).map((e) => e.created_at)).toEqual([t(2), t(1)].map((d) => d.toISOString()));
    expect((await events(ada, id, range(t(2), t(2)))).map((e) => e.created_at)).toEqual([t(2).toISOString()]);
    expect((await events(ada, id, `${range(t(1), t(3))}&actor_id=${ada.userId}&action=policy.set`)).map((e) => e.created_at)).toEqual(
      [t(3), t(1)].map((d) => d.toISOString()),
    );
    expect((await events(ada, id, `from=${encodeURIComponent('2026-01-01T13:02:30+01:00')}&action=policy.set`)).map((e) => e.created_at)).toEqual([
      t(3).toISOString(),
    ]);

    for (const query of [range(t(3), t(1)), 'from=yesterday', 'to=2026-01-01', 'colour=blue']) {
      const refused = await trail(ada, id, query);
      expect(refused.status, query).toBe(400);
      expect((await problemOf(refused)).code).toBe('invalid_request');
    }
    const reversed = await problemOf(await trail(ada, id, range(t(3), t(1))));
    expect((reversed.errors as { path: string }[]).map((e) => e.path)).toEqual(['query.from']);
  });

  it('pages with a keyset cursor: every event once, in order', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    // Two events at the same instant: the id breaks the tie.
    const same = new Date(Date.now() - 60_000);
    for (const [key, value] of [
      ['session.binding', true],
      ['session.idle_timeout_seconds', 3600],
    ] as const) {
      expect((await setPolicy(ada, id, key, value, same)).status).toBe(200);
    }
    for (let i = 0; i < 3; i += 1) expect((await setPolicy(ada, id, 'session.max_age_seconds', 3600 + i)).status).toBe(200);
    const all = await events(ada, id);
    expect(all.length).toBe(6);
    const sorted = [...all].sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1));
    expect(all.map((e) => e.id)).toEqual(sorted.map((e) => e.id));

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await trail(ada, id, `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      const page = (await response.json()) as Trail;
      expect(page.audit_events.length).toBeLessThanOrEqual(2);
      seen.push(...page.audit_events.map((e) => e.id));
      cursor = page.has_more ? page.next_cursor : null;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((e) => e.id));
    // A cursor of another collection is refused.
    const foreign = await trail(ada, id, 'cursor=not-a-cursor');
    expect((await problemOf(foreign)).code).toBe('invalid_pagination');
  });
});
