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
import { PG_URL, runBenchmark, scratchDatabase } from './support/database';
import { median } from './support/samples';
import { scratchSecrets } from './support/server';
import { startReceiver, TEST_CA_FILE } from '../tests/helpers/webhook-receiver';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 25;

async function main() {
  const database = await scratchDatabase('webhooks');
  const receiver = await startReceiver();
  try {
    Object.assign(process.env, scratchSecrets(), {
      DATABASE_URL: database.url,
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
    const { count } = await import('drizzle-orm');

    const db = await getDb();
    const userId = randomUUID();
    const now = new Date();
    await db.insert(users).values({ id: userId, email: 'bench@example.test', emailVerifiedAt: now, createdAt: now, updatedAt: now });
    // Through the service, as the portal would (the SSRF check resolves the receiver's name).
    const actor = {
      kind: 'session' as const,
      userId,
      sessionId: 'bench',
      authenticatedAt: now,
      stepUpAt: now,
      stepUpMethod: 'password' as const,
      amr: ['pwd'],
      lastSeenAt: now,
      bindingHash: null,
    };
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
      const rows = Array.from({ length: EVENTS }, (_, n) => ({
        id: randomUUID(),
        createdAt: at,
        type: 'identity.user.updated',
        userId,
        organizationId: null,
        payload: { user_id: userId, n },
      }));
      for (let i = 0; i < rows.length; i += 500) await db.insert(outboxEvents).values(rows.slice(i, i + 500));
      const started = performance.now();
      await workOnce(`bench-${randomUUID()}`, BATCH);
      const seconds = (performance.now() - started) / 1000;
      const outcomes = await db
        .select({ status: webhookDeliveries.status, failure: webhookDeliveries.lastFailureCode, n: count() })
        .from(webhookDeliveries)
        .groupBy(webhookDeliveries.status, webhookDeliveries.lastFailureCode);
      await db.delete(webhookDeliveries);
      const delivered = outcomes.find((o) => o.status === 'delivered')?.n ?? 0;
      // A send that failed (a reset connection, say) waits for its retry: counted apart, never as sent.
      for (const o of outcomes) if (o.status !== 'delivered') console.log(`  left for a retry: ${o.n} (${o.status}, ${o.failure})`);
      return delivered / seconds;
    }

    await raw();
    await durable();
    const rawRates: number[] = [];
    const durableRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rawRates.push(await raw());
      durableRates.push(await durable());
    }
    console.log(
      `webhook deliveries, ${EVENTS} per round, ${ROUNDS} interleaved rounds, concurrency ${BATCH} (PostgreSQL at ${new URL(PG_URL).host}, HTTPS receiver on loopback)`,
    );
    console.table({
      'raw signed POST loop': { per_second: median(rawRates).toFixed(0) },
      'outbox + fan-out + leased worker': { per_second: median(durableRates).toFixed(0) },
    });
    console.log(`durable / raw: ${(median(durableRates) / median(rawRates)).toFixed(2)} (goal >= 0.8)`);
    await closeDb();
  } finally {
    await receiver.close();
    await database.drop();
  }
}

runBenchmark(main);
