/**
 * Webhooks on a developer's machine (docs/decisions.md, "Local development"): with the embedded
 * database at a loopback BASE_URL, an endpoint on this machine (http or https, named localhost,
 * 127.0.0.1 or [::1]) is accepted and delivered to; private ranges and metadata addresses are still
 * refused. On PostgreSQL (production) the same endpoints are refused when created, and a stored one
 * is refused again when the connection is made.
 *
 * The suite runs with LOCAL_DEVELOPMENT=false (tests/setup/state.ts); each case sets the database the
 * configuration sees. Only the configuration changes: the test file keeps its own open database.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { webhookDeliveries } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, person, type Person } from '@/tests/helpers/organizations';
import { subscribe, WEBHOOKS } from '@/tests/helpers/webhooks';
import { withEnv } from '@/tests/setup/state';
import { deliverDue } from './dispatch';

/** The embedded default: no DATABASE_URL (memory: is its in-memory form), no LOCAL_DEVELOPMENT. */
const EMBEDDED = { DATABASE_URL: 'memory:', LOCAL_DEVELOPMENT: undefined };
/** Production: DATABASE_URL names a PostgreSQL server (nothing connects to it here). */
const PRODUCTION = { DATABASE_URL: 'postgres://identity@db.internal:5432/identity', LOCAL_DEVELOPMENT: undefined };

const mailbox = useMailbox();

/** A plain-http receiver on loopback, as a developer runs one next to the service. */
let server: Server;
let port = 0;
const bodies: { headers: Record<string, string>; body: string }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function under<T>(env: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const restore = withEnv(env);
  try {
    return await work();
  } finally {
    restore();
  }
}

const create = (owner: Person, url: string) => asBrowser(owner.browser, 'POST', WEBHOOKS, { body: { url, events: ['identity.user.updated'] } });

async function sendTestEvent(owner: Person, webhookId: string): Promise<string> {
  const response = await asBrowser(owner.browser, 'POST', `${WEBHOOKS}/test`, { body: { webhook_id: webhookId } });
  expect(response.status).toBe(202);
  return ((await response.json()) as { delivery_id: string }).delivery_id;
}

async function deliveryRow(id: string) {
  const [row] = await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row!;
}

/** Private ranges, link-local (cloud metadata) and IPv6 unique-local: refused whatever the mode. */
const NEVER = [
  'https://10.0.0.5/hook',
  'https://192.168.1.20/hook',
  'https://172.16.0.1/hook',
  'https://169.254.169.254/latest/meta-data',
  'https://[fd00:ec2::254]/',
  'https://[::ffff:10.0.0.1]/',
  'http://10.0.0.5/hook',
  'http://169.254.169.254/latest/meta-data',
];

describe('webhook receivers on this machine', () => {
  it('the embedded default accepts a loopback receiver over http and delivers a signed test event to it', async () => {
    const ada = await person(mailbox, 'ada');
    const url = `http://localhost:${port}/hooks`;
    const deliveryId = await under(EMBEDDED, async () => {
      const hook = await subscribe(ada, url);
      expect(hook.url).toBe(url);
      const id = await sendTestEvent(ada, hook.id);
      await deliverDue({ now: new Date(), owner: 'local-test-worker', limit: 10, userId: ada.userId });
      const received = bodies.find((b) => b.headers['webhook-id'] === id);
      expect(received, 'the receiver got the test event').toBeDefined();
      // Signed as any delivery: the receiver verifies it with the secret shown once.
      expect(() => new Webhook(hook.secret).verify(received!.body, received!.headers)).not.toThrow();
      return id;
    });
    expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'delivered', lastResponseStatus: 204 });
  });

  it('the embedded default accepts 127.0.0.1 and [::1] too, but no other name or address of the loopback range', async () => {
    const ada = await person(mailbox, 'ada');
    await under(EMBEDDED, async () => {
      for (const url of [`http://127.0.0.1:${port}/a`, 'http://[::1]:4000/b', `https://127.0.0.1:${port}/c`, `https://localhost:${port}/d`]) {
        expect((await create(ada, url)).status, url).toBe(201);
      }
      // Other spellings of loopback are not what a developer writes: the full rule applies to them.
      for (const url of ['https://127.0.0.2/x', 'https://[::ffff:127.0.0.1]/x', 'https://[::7f00:1]/x']) {
        const response = await create(ada, url);
        expect(response.status, url).toBe(400);
        expect(JSON.stringify(await problemOf(response))).toContain('non-public address');
      }
      expect((await create(ada, 'http://127.0.0.2/x')).status).toBe(400);
      expect((await create(ada, 'http://example.com/x')).status).toBe(400);
    });
  });

  it('private ranges and metadata addresses are refused in both modes', async () => {
    const ada = await person(mailbox, 'ada');
    for (const env of [EMBEDDED, PRODUCTION]) {
      await under(env, async () => {
        for (const url of NEVER) expect((await create(ada, url)).status, `${url} (${env.DATABASE_URL})`).toBe(400);
      });
    }
    const list = (await (await asBrowser(ada.browser, 'GET', WEBHOOKS)).json()) as { webhooks: unknown[] };
    expect(list.webhooks).toEqual([]);
  });

  it('production refuses loopback receivers when they are created, and at connect time when one was stored before', async () => {
    const ada = await person(mailbox, 'ada');
    await under(PRODUCTION, async () => {
      for (const url of [`http://localhost:${port}/hooks`, `http://127.0.0.1:${port}/hooks`, `https://localhost:${port}/hooks`, 'https://[::1]/x']) {
        const response = await create(ada, url);
        expect(response.status, url).toBe(400);
        expect((await problemOf(response)).code).toBe('invalid_request');
      }
    });
    // Stored while developing locally, then the same data runs with local development off.
    const stored = await under(EMBEDDED, () => subscribe(ada, `http://localhost:${port}/stored`));
    const deliveryId = await sendTestEvent(ada, stored.id);
    const before = bodies.length;
    await under(PRODUCTION, () => deliverDue({ now: new Date(), owner: 'production-worker', limit: 10, userId: ada.userId }));
    expect(bodies.length).toBe(before);
    expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'failed', lastFailureCode: 'private_address', lastResponseStatus: null });
  });
});
