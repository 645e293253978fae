/**
 * Durable signed delivery to a real HTTPS receiver on loopback: the official Standard Webhooks and
 * Svix verifiers accept what we send; retries, failures and manual retry follow the transition table;
 * a worker that dies mid-delivery loses nothing; two workers never send one delivery at once; the
 * connection itself refuses a private address.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { webhookDeliveries, webhookDeliveryAttempts, webhookSubscriptions } from '@/lib/db/schema';
import { emitEvent } from '@/lib/events';
import { useMailbox } from '@/tests/helpers/accounts';
import { asBrowser, person, type Person } from '@/tests/helpers/organizations';
import { startReceiver, type Receiver } from '@/tests/helpers/webhook-receiver';
import { LOOPBACK_ENV, subscribe, WEBHOOKS, type CreatedWebhook } from '@/tests/helpers/webhooks';
import { withEnv } from '@/tests/setup/state';
import { claimDue, deliverDue, sendLeased } from './dispatch';
import { sign } from './signing';
import { MAX_ATTEMPTS } from './transitions';
import { startWebhookWorker, workOnce } from './worker';

const mailbox = useMailbox(LOOPBACK_ENV);
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const later = (ms: number) => new Date(Date.now() + ms);
const HOURS_7 = 7 * 3600_000;

async function deliveryRow(id: string) {
  const [row] = await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row!;
}

async function attemptsOf(id: string) {
  return (await getDb()).select().from(webhookDeliveryAttempts).where(eq(webhookDeliveryAttempts.deliveryId, id)).orderBy(webhookDeliveryAttempts.attempt);
}

async function testEvent(owner: Person, hook: CreatedWebhook): Promise<string> {
  const response = await asBrowser(owner.browser, 'POST', `${WEBHOOKS}/test`, { body: { webhook_id: hook.id } });
  expect(response.status).toBe(202);
  return ((await response.json()) as { delivery_id: string }).delivery_id;
}

/** Runs the owner's due deliveries at `now` (one bounded pass, as a worker would; other tests' rows stay out). */
const pass = (owner: Person, now = new Date(), worker = 'test-worker') => deliverDue({ now, owner: worker, limit: 50, userId: owner.userId });

const received = (id: string) => receiver.received.filter((r) => r.id === id);

describe('signed deliveries', () => {
  it('is accepted by the standardwebhooks and svix verifiers; a tampered body, a wrong secret or an old timestamp is not', async () => {
    const ada = await person(mailbox, 'ada');
    const hook = await subscribe(ada, receiver.url, ['identity.user.updated']);
    const testId = await testEvent(ada, hook);
    // A domain event through the outbox, as an operation would write it.
    await emitEvent(await getDb(), 'identity.user.updated', { user_id: ada.userId }, { userId: ada.userId }, new Date());
    await workOnce('verifier-worker', 25);

    const mine = receiver.received.filter((r) => r.body.includes(ada.userId) || r.id === testId);
    expect(mine).toHaveLength(2);
    for (const request of mine) {
      expect(new StandardWebhook(hook.secret).verify(request.body, request.headers)).toBeTruthy();
      expect(() => new SvixWebhook(hook.secret).verify(request.body, request.headers)).not.toThrow();
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^identity-service-webhooks\//);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

      const tampered = request.body.replace('identity.', 'identitx.');
      expect(() => new StandardWebhook(hook.secret).verify(tampered, request.headers)).toThrow();
      expect(() => new SvixWebhook(hook.secret).verify(tampered, request.headers)).toThrow();
      const wrong = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      expect(() => new StandardWebhook(wrong).verify(request.body, request.headers)).toThrow();
      expect(() => new SvixWebhook(wrong).verify(request.body, request.headers)).toThrow();
      const old = Math.floor(Date.now() / 1000) - 3600;
      const stale = { ...request.headers, 'webhook-timestamp': String(old), 'webhook-signature': sign(hook.secret, request.id, old, request.body) };
      expect(() => new StandardWebhook(hook.secret).verify(request.body, stale)).toThrow();
      expect(() => new SvixWebhook(hook.secret).verify(request.body, stale)).toThrow();
    }
    const test = JSON.parse(received(testId)[0]!.body) as Record<string, unknown>;
    expect(test).toEqual({ type: 'identity.webhook.test', timestamp: expect.stringMatching(/Z$/), data: { webhook_id: hook.id } });
    const event = JSON.parse(mine.find((r) => r.id !== testId)!.body) as Record<string, unknown>;
    expect(event).toEqual({ type: 'identity.user.updated', timestamp: expect.any(String), data: { user_id: ada.userId } });
    expect(await deliveryRow(testId)).toMatchObject({ status: 'delivered', attempts: 1, lastResponseStatus: 200, lastFailureCode: null, leaseOwner: null });
  });

  it('signs with the rotated secret from the moment of rotation', async () => {
    const ada = await person(mailbox, 'ada');
    const hook = await subscribe(ada, receiver.url);
    const id = await testEvent(ada, hook);
    const rotated = (await (await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/rotate`, { body: { webhook_id: hook.id } })).json()) as { secret: string };
    await pass(ada);
    const [request] = received(id);
    expect(() => new StandardWebhook(rotated.secret).verify(request!.body, request!.headers)).not.toThrow();
    expect(() => new StandardWebhook(hook.secret).verify(request!.body, request!.headers)).toThrow();
  });
});

describe('the delivery state machine', () => {
  it('retries a 5xx with backoff and delivers on the retry, with the same webhook-id', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await testEvent(ada, await subscribe(ada, receiver.url));
    receiver.respond([503]);
    const now = new Date();
    await pass(ada, now);
    const retrying = await deliveryRow(id);
    expect(retrying).toMatchObject({ status: 'retrying', attempts: 1, lastFailureCode: 'http_5xx', lastResponseStatus: 503 });
    const delay = retrying.nextAttemptAt!.getTime() - now.getTime();
    expect(delay).toBeGreaterThanOrEqual(22_500);
    expect(delay).toBeLessThanOrEqual(37_500);
    // Not due yet: nothing is sent.
    await pass(ada, now);
    expect(received(id)).toHaveLength(1);

    await pass(ada, later(60_000));
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered', attempts: 2, lastFailureCode: null, lastResponseStatus: 200, nextAttemptAt: null });
    expect(received(id).map((r) => r.status)).toEqual([503, 200]);
    expect((await attemptsOf(id)).map((a) => [a.attempt, a.responseStatus, a.failureCode])).toEqual([
      [1, 503, 'http_5xx'],
      [2, 200, null],
    ]);
  });

  it('fails on a 4xx until the owner retries it; the retry (sent by deliveries/process) is delivered', async () => {
    const ada = await person(mailbox, 'ada');
    const hook = await subscribe(ada, receiver.url);
    const id = await testEvent(ada, hook);
    receiver.respond([400]);
    await pass(ada);
    expect(await deliveryRow(id)).toMatchObject({ status: 'failed', attempts: 1, lastFailureCode: 'http_4xx', lastResponseStatus: 400, nextAttemptAt: null });
    await pass(ada, later(HOURS_7));
    expect(received(id)).toHaveLength(1);

    const bob = await person(mailbox, 'bob');
    expect((await asBrowser(bob.browser, 'POST', `${WEBHOOKS}/deliveries/retry`, { body: { delivery_id: id } })).status).toBe(404);
    const retry = await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/deliveries/retry`, { body: { delivery_id: id } });
    expect(retry.status).toBe(202);
    expect(await retry.json()).toEqual({ delivery_id: id, status: 'queued' });
    expect((await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/deliveries/retry`, { body: { delivery_id: id } })).status).toBe(409);

    // Bob's on-demand pass takes only Bob's deliveries.
    expect(await (await asBrowser(bob.browser, 'POST', `${WEBHOOKS}/deliveries/process`)).json()).toEqual({ queued: 0 });
    const processed = await asBrowser(ada.browser, 'POST', `${WEBHOOKS}/deliveries/process`);
    expect(processed.status).toBe(200);
    expect(await processed.json()).toEqual({ queued: 1 });
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered', attempts: 2 });
    const log = (await (await asBrowser(ada.browser, 'GET', `${WEBHOOKS}/deliveries`)).json()) as { deliveries: Record<string, unknown>[] };
    expect(log.deliveries[0]).toMatchObject({ id, status: 'delivered', attempts: 2, last_response_status: 200, last_failure_code: null });
    // Metadata only: no payload, no body the receiver answered.
    expect(JSON.stringify(log)).not.toContain('receiver body');
    expect(JSON.stringify(log)).not.toContain('"data"');
  });

  it(`fails after the ${MAX_ATTEMPTS}th failed attempt, the waits growing`, async () => {
    const ada = await person(mailbox, 'ada');
    const id = await testEvent(ada, await subscribe(ada, receiver.url));
    receiver.respond([], 500);
    let clock = Date.now();
    const waits: number[] = [];
    for (let n = 1; n <= MAX_ATTEMPTS; n += 1) {
      await pass(ada, new Date(clock));
      const row = await deliveryRow(id);
      expect(row.attempts).toBe(n);
      if (n < MAX_ATTEMPTS) {
        expect(row.status).toBe('retrying');
        waits.push(row.nextAttemptAt!.getTime() - clock);
        clock = row.nextAttemptAt!.getTime();
      }
    }
    receiver.respond([], 200);
    expect(await deliveryRow(id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastFailureCode: 'http_5xx', nextAttemptAt: null });
    expect(await attemptsOf(id)).toHaveLength(MAX_ATTEMPTS);
    expect(waits[0]).toBeLessThan(60_000);
    // 30 s x 2^6 before the eighth attempt, give or take the jitter.
    expect(waits.at(-1)).toBeGreaterThan(20 * 60_000);
    for (let i = 1; i < waits.length; i += 1) expect(waits[i]!).toBeGreaterThan(waits[i - 1]!);
  });

  it('fails on 410 Gone and disables the subscription', async () => {
    const ada = await person(mailbox, 'ada');
    const hook = await subscribe(ada, receiver.url);
    const id = await testEvent(ada, hook);
    receiver.respond([410]);
    await pass(ada);
    expect(await deliveryRow(id)).toMatchObject({ status: 'failed', lastFailureCode: 'http_4xx', lastResponseStatus: 410 });
    const [subscription] = await (await getDb()).select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, hook.id));
    expect(subscription!.status).toBe('disabled');
  });
});

describe('leases', () => {
  it('loses nothing when a worker dies mid-delivery: the lease runs out, another worker delivers, the late worker records nothing', async () => {
    const ada = await person(mailbox, 'ada');
    const hook = await subscribe(ada, receiver.url);
    const id = await testEvent(ada, hook);
    const now = new Date();
    const [leased] = await claimDue({ now, owner: 'worker-a', limit: 50, userId: ada.userId });
    expect(leased!.id).toBe(id);
    // Worker A "dies" here. Within the minute nobody else may take it.
    await pass(ada, later(30_000), 'worker-b');
    expect(received(id)).toHaveLength(0);
    await pass(ada, later(61_000), 'worker-b');
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered', attempts: 1, leaseOwner: null });

    // A comes back (it had been stalled, not dead) and sends its copy: its outcome is not recorded.
    expect(await sendLeased([leased!], { now, owner: 'worker-a', limit: 1 })).toEqual([null]);
    expect(await deliveryRow(id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await attemptsOf(id)).toHaveLength(1);
    // A receiver that dedupes by webhook-id has seen the event exactly once.
    expect(received(id).every((r) => r.id === id)).toBe(true);
    expect(receiver.delivered().filter((r) => r.id === id)).toHaveLength(1);
  });

  it('keeps two racing workers from ever sending one delivery at the same time', async () => {
    const slow = await startReceiver({ delayMs: 20 });
    try {
      const ada = await person(mailbox, 'ada');
      const hook = await subscribe(ada, slow.url);
      const ids: string[] = [];
      for (let i = 0; i < 30; i += 1) ids.push(await testEvent(ada, hook));
      await Promise.all([workOnce(`race-a-${randomUUID()}`, 4), workOnce(`race-b-${randomUUID()}`, 4)]);
      expect(slow.maxInFlight()).toBe(1);
      expect(slow.received.map((r) => r.id).sort()).toEqual([...ids].sort());
      for (const id of ids) expect((await deliveryRow(id)).status).toBe('delivered');
    } finally {
      await slow.close();
    }
  });
});

describe('the SSRF guard at connect time', () => {
  it('refuses to connect when the endpoint name resolves to loopback and private networks are not allowed', async () => {
    const ada = await person(mailbox, 'ada');
    const byName = await subscribe(ada, receiver.url);
    const byAddress = await subscribe(ada, `https://127.0.0.1:${receiver.port}/hooks`);
    const ids = [await testEvent(ada, byName), await testEvent(ada, byAddress)];
    const restore = withEnv({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' });
    try {
      await pass(ada);
    } finally {
      restore();
    }
    for (const id of ids) {
      expect(await deliveryRow(id)).toMatchObject({ status: 'failed', attempts: 1, lastFailureCode: 'private_address', lastResponseStatus: null });
      expect(received(id)).toHaveLength(0);
    }
  });
});

describe('the running worker', () => {
  async function until(check: () => Promise<boolean>) {
    while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it('delivers while it polls, and when stopped mid-send gives the lease back without counting an attempt', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await testEvent(ada, await subscribe(ada, receiver.url));
    const worker = startWebhookWorker({ intervalMs: 20, batch: 5 });
    try {
      await until(async () => (await deliveryRow(id)).status === 'delivered');
    } finally {
      await worker.stop();
    }

    const stalled = await startReceiver({ delayMs: 10_000 });
    try {
      const hook = await subscribe(ada, stalled.url);
      const slow = await testEvent(ada, hook);
      const stopping = startWebhookWorker({ intervalMs: 20, batch: 5 });
      await until(async () => stalled.received.some((r) => r.id === slow));
      await stopping.stop(0);
      expect(await deliveryRow(slow)).toMatchObject({ status: 'queued', attempts: 0, leaseOwner: null, leasedUntil: null });
      expect(await attemptsOf(slow)).toEqual([]);
    } finally {
      await stalled.close();
    }
  });
});
