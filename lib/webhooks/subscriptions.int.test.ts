/**
 * Webhook subscriptions through the real pipeline and database: the browser contract (session +
 * step-up), the SSRF guard at creation, the secret shown once, rotation, disable, owner isolation and
 * the bearer surface.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents } from '@/lib/db/schema';
import { newClient, useMailbox } from '@/tests/helpers/accounts';
import { call, operation, problemOf } from '@/tests/helpers/http';
import { asBrowser, person } from '@/tests/helpers/organizations';
import { startReceiver, type Receiver } from '@/tests/helpers/webhook-receiver';
import { LOOPBACK_ENV, subscribe, WEBHOOKS } from '@/tests/helpers/webhooks';
import { withEnv } from '@/tests/setup/state';
import { WEBHOOK_EVENT_TYPES } from './terms';
import { MAX_SUBSCRIPTIONS } from './subscriptions';

const mailbox = useMailbox(LOOPBACK_ENV);
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** Every row of every table, as text: what a database dump would hold. */
async function dumpAll(): Promise<string> {
  const db = await getDb();
  const tables = await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
  const names = (Array.isArray(tables) ? tables : (tables as unknown as { rows: { table_name: string }[] }).rows) as { table_name: string }[];
  let dump = '';
  for (const { table_name } of names) {
    const rows = await db.execute(sql.raw(`select row_to_json(t)::text as line from "${table_name}" t`));
    dump += JSON.stringify(rows);
  }
  return dump;
}

function bearer(token: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; query?: string } = {}) {
  return call(operation(method, path), { ...options, headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': newClient(), ...options.headers } });
}

describe('webhook subscriptions (browser contract)', () => {
  it('shows the secret once: the list, the database and the audit trail never hold it', async () => {
    const ada = await person(mailbox, 'ada');
    const created = await subscribe(ada, receiver.url, ['identity.user.updated', 'identity.password.changed'], 'CI');
    expect(created).toMatchObject({ url: receiver.url, events: ['identity.user.updated', 'identity.password.changed'], description: 'CI', status: 'enabled' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

    const list = await asBrowser(ada.browser, 'GET', WEBHOOKS);
    const text = await list.text();
    expect(text).not.toContain('whsec_');
    const { secret: _shownOnce, ...view } = created;
    expect(JSON.parse(text)).toEqual({ webhooks: [view], has_more: false, next_cursor: null });

    const rotated = await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/rotate`, { body: { webhook_id: created.id } });
    expect(rotated.status).toBe(200);
    const { secret } = (await rotated.json()) as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.secret);

    const dump = await dumpAll();
    expect(dump).not.toContain('whsec_');
    expect(dump).not.toContain(created.secret.slice(6));
    expect(dump).not.toContain(secret.slice(6));
    // The audit trail names the host, never the URL's path or query.
    const audit = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.subjectId, created.id));
    expect(audit.map((row) => row.action).sort()).toEqual(['webhook.created', 'webhook.secret_rotated']);
    expect(JSON.stringify(audit)).not.toContain('token=abc');
    expect(audit.find((row) => row.action === 'webhook.created')!.data).toEqual({
      host: `localhost:${receiver.port}`,
      events: 'identity.user.updated identity.password.changed',
    });
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const ada = await person(mailbox, 'ada');
    const bad: unknown[] = [
      { url: 'http://example.com/hook', events: ['identity.user.updated'] },
      { url: 'https://user:pw@example.com/hook', events: ['identity.user.updated'] },
      { url: 'https://example.com/hook#frag', events: ['identity.user.updated'] },
      { url: `https://example.com/${'a'.repeat(2050)}`, events: ['identity.user.updated'] },
      { url: 'not a url', events: ['identity.user.updated'] },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['identity.unknown'] },
      { url: receiver.url, events: ['identity.webhook.test'] },
      { url: receiver.url, events: ['identity.user.updated'], extra: 1 },
    ];
    for (const body of bad) {
      const response = await asBrowser(ada.browser, 'POST', WEBHOOKS, { body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((await problemOf(response)).code).toBe('invalid_request');
    }
    const list = (await (await asBrowser(ada.browser, 'GET', WEBHOOKS)).json()) as { webhooks: unknown[] };
    expect(list.webhooks).toEqual([]);
  });

  it('refuses an endpoint resolving to a loopback or metadata address unless private networks are allowed (tests only)', async () => {
    const ada = await person(mailbox, 'ada');
    const restore = withEnv({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' });
    try {
      for (const url of [
        receiver.url,
        'https://127.0.0.1/x',
        'https://127。0。0。1/x',
        'https://[::7f00:1]/x',
        'https://[::1]/x',
        'https://169.254.169.254/latest',
        'https://[fd00:ec2::254]/',
        'https://[::ffff:10.0.0.1]/',
        'https://10.1.2.3/',
      ]) {
        const response = await asBrowser(ada.browser, 'POST', WEBHOOKS, { body: { url, events: ['identity.user.updated'] } });
        expect(response.status, url).toBe(400);
        expect(JSON.stringify(await problemOf(response))).toContain('non-public address');
      }
      const unresolvable = await asBrowser(ada.browser, 'POST', WEBHOOKS, {
        body: { url: 'https://no-such-host.invalid/x', events: ['identity.user.updated'] },
      });
      expect(unresolvable.status).toBe(400);
    } finally {
      restore();
    }
    expect((await asBrowser(ada.browser, 'POST', WEBHOOKS, { body: { url: receiver.url, events: ['identity.user.updated'] } })).status).toBe(201);
  });

  it('stores and shows the endpoint in its parsed, serialised form, the one deliveries call', async () => {
    const ada = await person(mailbox, 'ada');
    const written = `https://127。0。0。1:${receiver.port}/H%6fok/../hook?x=1`;
    const created = await subscribe(ada, written);
    const serialised = `https://127.0.0.1:${receiver.port}/hook?x=1`;
    expect(created.url).toBe(serialised);
    const list = (await (await asBrowser(ada.browser, 'GET', WEBHOOKS)).json()) as { webhooks: { url: string }[] };
    expect(list.webhooks.map((hook) => hook.url)).toEqual([serialised]);
  });

  it('refuses line breaks and spaces around the endpoint rather than storing them', async () => {
    const ada = await person(mailbox, 'ada');
    for (const url of [`${receiver.url}\r\n`, ` ${receiver.url}`, `${receiver.url} `, receiver.url.replace('https://', 'https://\n')]) {
      const response = await asBrowser(ada.browser, 'POST', WEBHOOKS, { body: { url, events: ['identity.user.updated'] } });
      expect(response.status, JSON.stringify(url)).toBe(400);
      expect((await problemOf(response)).errors).toEqual([
        { path: 'body.url', message: 'The endpoint must not contain spaces, line breaks or other control characters.' },
      ]);
    }
    const list = (await (await asBrowser(ada.browser, 'GET', WEBHOOKS)).json()) as { webhooks: unknown[] };
    expect(list.webhooks).toEqual([]);
  });

  it('keeps owners apart: another owner’s webhook is not found for test, rotate, disable and the delivery filter', async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const hook = await subscribe(ada, receiver.url);
    for (const action of ['test', 'rotate', 'disable']) {
      const response = await asBrowser(bob.browser, 'POST', `${WEBHOOKS}/${action}`, { body: { webhook_id: hook.id } });
      expect(response.status, action).toBe(404);
      const malformed = await asBrowser(bob.browser, 'POST', `${WEBHOOKS}/${action}`, { body: { webhook_id: 'not-a-uuid' } });
      expect(malformed.status, action).toBe(404);
    }
    const test = await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/test`, { body: { webhook_id: hook.id } });
    expect(test.status).toBe(202);
    const { delivery_id } = (await test.json()) as { delivery_id: string };
    const bobs = (await (await asBrowser(bob.browser, 'GET', `${WEBHOOKS}/deliveries`, { query: `webhook_id=${hook.id}` })).json()) as {
      deliveries: unknown[];
    };
    expect(bobs.deliveries).toEqual([]);
    expect((await asBrowser(bob.browser, 'POST', `${WEBHOOKS}/deliveries/retry`, { body: { delivery_id } })).status).toBe(404);
    const adas = (await (await asBrowser(ada.browser, 'GET', `${WEBHOOKS}/deliveries`, { query: `webhook_id=${hook.id}` })).json()) as {
      deliveries: Record<string, unknown>[];
    };
    expect(adas.deliveries).toEqual([
      {
        id: delivery_id,
        webhook_id: hook.id,
        event_type: 'identity.webhook.test',
        status: 'queued',
        attempts: 0,
        next_attempt_at: expect.any(String),
        last_attempt_at: null,
        last_failure_code: null,
        last_response_status: null,
        created_at: expect.any(String),
      },
    ]);
  });

  it('disables with step-up: a disabled subscription takes no test, no rotation, and its waiting deliveries fail unsent', async () => {
    const ada = await person(mailbox, 'ada');
    const hook = await subscribe(ada, receiver.url);
    const { delivery_id } = (await (await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/test`, { body: { webhook_id: hook.id } })).json()) as {
      delivery_id: string;
    };
    const disabled = await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/disable`, { body: { webhook_id: hook.id } });
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toEqual({ id: hook.id, status: 'disabled' });
    expect((await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/disable`, { body: { webhook_id: hook.id } })).status).toBe(409);
    expect((await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/test`, { body: { webhook_id: hook.id } })).status).toBe(409);
    expect((await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/rotate`, { body: { webhook_id: hook.id } })).status).toBe(409);
    const list = (await (await asBrowser(ada.browser, 'GET', `${WEBHOOKS}/deliveries`)).json()) as {
      deliveries: { id: string; status: string; last_failure_code: string }[];
    };
    expect(list.deliveries.find((d) => d.id === delivery_id)).toMatchObject({ status: 'failed', last_failure_code: 'subscription_disabled' });
  });

  it(`holds at most ${MAX_SUBSCRIPTIONS} enabled subscriptions per owner`, async () => {
    const ada = await person(mailbox, 'ada');
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i += 1) await subscribe(ada, receiver.url);
    const over = await asBrowser(ada.browser, 'POST', WEBHOOKS, { body: { url: receiver.url, events: ['identity.user.updated'] } });
    expect(over.status).toBe(409);
  });

  it('offers the whole event catalogue', async () => {
    const ada = await person(mailbox, 'ada');
    const hook = await subscribe(ada, receiver.url, [...WEBHOOK_EVENT_TYPES].reverse());
    expect(hook.events).toEqual([...WEBHOOK_EVENT_TYPES]);
  });
});

describe('webhooks (bearer contract)', () => {
  async function apiKey(owner: Awaited<ReturnType<typeof person>>, scopes: string[]): Promise<string> {
    const response = await asBrowser(owner.browser, 'POST', '/api/developer/api-keys', { body: { name: 'hooks', scopes } });
    return ((await response.json()) as { api_key: string }).api_key;
  }

  it('lists with identity.developer.read and sends a test event with identity.webhooks.test and a required Idempotency-Key', async () => {
    const ada = await person(mailbox, 'ada');
    const hook = await subscribe(ada, receiver.url);
    const reader = await apiKey(ada, ['identity.developer.read']);
    const tester = await apiKey(ada, ['identity.webhooks.test']);

    const list = await bearer(reader, 'GET', '/api/v1/developer/webhooks');
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ webhooks: [{ id: hook.id }], authentication: 'api_key', scopes: ['identity.developer.read'] });
    expect((await bearer(tester, 'GET', '/api/v1/developer/webhooks')).status).toBe(403);

    const path = '/api/v1/developer/webhooks/test';
    expect((await bearer(tester, 'POST', path, { body: { webhook_id: hook.id } })).status).toBe(400);
    expect((await bearer(reader, 'POST', path, { body: { webhook_id: hook.id }, headers: { 'idempotency-key': 'hook-test-0' } })).status).toBe(403);
    const first = await bearer(tester, 'POST', path, { body: { webhook_id: hook.id }, headers: { 'idempotency-key': 'hook-test-1' } });
    expect(first.status).toBe(202);
    const replay = await bearer(tester, 'POST', path, { body: { webhook_id: hook.id }, headers: { 'idempotency-key': 'hook-test-1' } });
    expect(await replay.json()).toEqual(await first.json());

    const deliveries = (await (await bearer(reader, 'GET', '/api/v1/developer/webhooks/deliveries')).json()) as { deliveries: unknown[] };
    expect(deliveries.deliveries).toHaveLength(1);

    const bob = await person(mailbox, 'bob');
    const bobsTester = await apiKey(bob, ['identity.webhooks.test']);
    expect((await bearer(bobsTester, 'POST', path, { body: { webhook_id: hook.id }, headers: { 'idempotency-key': 'hook-test-2' } })).status).toBe(404);
  });
});
