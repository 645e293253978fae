/**
 * Webhook delivery throughput (not part of CI): signed deliveries per second through the whole
 * durable path (outbox events -> fan-out -> leased worker passes -> signed HTTPS POST -> outcome and
 * attempt rows) against a raw loop of signed POSTs to the same loopback HTTPS receiver, with the same
 * concurrency (one worker batch). Interleaved rounds on a scratch PostgreSQL database; medians.
 * Event writes are not timed: the business transactions that cause events pay for them.
 *
 *   npx tsx bench/webhooks.ts   (BENCH_EVENTS, BENCH_ROUNDS, BENCH_PG_URL)
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { median } from './support/samples';
import { scratchSecrets } from './support/server';
import { startReceiver, TEST_CA_FILE } from '../tests/helpers/webhook-receiver';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 25;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

async function main() {
  const database = `bench_webhooks_${Date.now()}`;
  const admin = postgres(`${PG_URL}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${database}`);
  const receiver = await startReceiver();
  try {
    Object.assign(process.env, scratchSecrets(), {
      DATABASE_URL: `${PG_URL}/${database}`,
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      OUTBOUND_CA_FILE: TEST_CA_FILE,
      LOG_LEVEL: 'error',
    });
    const { getDb, closeDb } = await import('../lib/db');
    const { users, outboxEvents, webhookDeliveries } = await import('../lib/db/schema');
    const { postJson } = await import('../lib/platform');
    const { workOnce } = await import('../lib/webhooks');
    const { deliveryHeaders } = await import('../lib/webhooks/signing');
    const { createWebhook } = await import('../lib/webhooks/subscriptions');
    const { count, eq } = await import('drizzle-orm');

    const db = await getDb();
    const userId = randomUUID();
    const now = new Date();
    await db.insert(users).values({ id: userId, email: 'bench@example.test', emailVerifiedAt: now, createdAt: now, updatedAt: now });
    // Through the service, as the portal would (the SSRF check resolves the receiver's name).
    const actor = { kind: 'session' as const, userId, sessionId: 'bench', authenticatedAt: now, stepUpAt: now, stepUpMethod: 'password' as const, amr: ['pwd'], lastSeenAt: now, bindingHash: null };
    const { secret } = await createWebhook(actor, { url: receiver.url, events: ['identity.user.updated'] }, now, 'bench');
    const body = (n: number) => JSON.stringify({ type: 'identity.user.updated', timestamp: new Date().toISOString(), data: { user_id: userId, n } });

    async function raw(): Promise<number> {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: BATCH }, async () => {
          while (next < EVENTS) {
            const payload = body(next++);
            const result = await postJson(receiver.url, deliveryHeaders(secret, randomUUID(), new Date(), payload), payload, { timeoutMs: 15_000 });
            if (!('status' in result) || result.status !== 200) throw new Error(`raw POST failed: ${JSON.stringify(result)}`);
          }
        }),
      );
      return EVENTS / ((performance.now() - started) / 1000);
    }

    async function durable(): Promise<number> {
      const at = new Date();
      const rows = Array.from({ length: EVENTS }, (_, n) => ({ id: randomUUID(), createdAt: at, type: 'identity.user.updated', userId, organizationId: null, payload: { user_id: userId, n } }));
      for (let i = 0; i < rows.length; i += 500) await db.insert(outboxEvents).values(rows.slice(i, i + 500));
      const started = performance.now();
      await workOnce(`bench-${randomUUID()}`, BATCH);
      const seconds = (performance.now() - started) / 1000;
      const [delivered] = await db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'delivered'));
      await db.delete(webhookDeliveries);
      if (delivered!.n !== EVENTS) throw new Error(`delivered ${delivered!.n} of ${EVENTS}`);
      return EVENTS / seconds;
    }

    await raw();
    await durable();
    const rawRates: number[] = [];
    const durableRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rawRates.push(await raw());
      durableRates.push(await durable());
    }
    console.log(`webhook deliveries, ${EVENTS} per round, ${ROUNDS} interleaved rounds, concurrency ${BATCH} (PostgreSQL at ${new URL(PG_URL).host}, HTTPS receiver on loopback)`);
    console.table({
      'raw signed POST loop': { per_second: median(rawRates).toFixed(0) },
      'outbox + fan-out + leased worker': { per_second: median(durableRates).toFixed(0) },
    });
    console.log(`durable / raw: ${(median(durableRates) / median(rawRates)).toFixed(2)} (goal >= 0.8)`);
    await closeDb();
  } finally {
    await receiver.close();
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
