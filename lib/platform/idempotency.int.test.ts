import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { idempotencyRecords } from '@/lib/db/schema';
import { beginIdempotent, completeIdempotent, IDEMPOTENCY_LEASE_SECONDS, releaseIdempotent, type IdempotencyClaim } from './idempotency';
import { findRecord } from './idempotency.repo';

const T0 = new Date('2026-11-22T09:00:00Z');
const after = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const scope = (key: string) => ({ principal: 'p', operationId: 'op', key });
const DAY = 86_400;

async function claimed(key: string, at: Date): Promise<IdempotencyClaim> {
  const started = await beginIdempotent(scope(key), 'hash', at, DAY);
  if (!('claim' in started)) throw new Error('expected a claim');
  return started.claim;
}

describe('idempotency claims', () => {
  it('completes only while the claim is held: after a takeover the original cannot, the new holder can', async () => {
    const original = await claimed('race', T0);
    const takeover = await claimed('race', after(IDEMPOTENCY_LEASE_SECONDS + 1));
    expect(takeover.token).not.toBe(original.token);
    await expect(completeIdempotent(original, { status: 201, body: { by: 'original' } })).rejects.toMatchObject({ code: 'idempotency_request_in_flight' });
    // A late release by the original must not free the key the new holder is using.
    await releaseIdempotent(original);
    await completeIdempotent(takeover, { status: 201, body: { by: 'takeover' } });
    expect(await beginIdempotent(scope('race'), 'hash', after(IDEMPOTENCY_LEASE_SECONDS + 2), DAY)).toEqual({
      replay: { status: 201, body: { by: 'takeover' } },
    });
  });

  it('lets one of two retries racing for an expired lease take it over', async () => {
    await claimed('two-retries', T0);
    const late = after(IDEMPOTENCY_LEASE_SECONDS + 5);
    const outcomes = await Promise.allSettled([
      beginIdempotent(scope('two-retries'), 'hash', late, DAY),
      beginIdempotent(scope('two-retries'), 'hash', late, DAY),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(['idempotency_request_in_flight']);
  });

  it('takes over a record written before leases existed (no token, no lease)', async () => {
    await (
      await getDb()
    )
      .insert(idempotencyRecords)
      .values({ ...scope('legacy'), requestHash: 'hash', state: 'in_flight', createdAt: T0, expiresAt: after(DAY) });
    const takeover = await claimed('legacy', after(1));
    expect((await findRecord(await getDb(), scope('legacy')))?.claimToken).toBe(takeover.token);
  });

  it('keeps the answer sealed at rest, bound to its scope: a sealed answer moved under another key does not replay', async () => {
    const claim = await claimed('sealed', T0);
    await completeIdempotent(claim, { status: 201, body: { api_key: 'idk_one_time_secret_value' } });
    const db = await getDb();
    const [row] = await db.select().from(idempotencyRecords).where(eq(idempotencyRecords.key, 'sealed'));
    expect(JSON.stringify(row)).not.toContain('one_time_secret');
    expect(await beginIdempotent(scope('sealed'), 'hash', after(1), DAY)).toEqual({ replay: { status: 201, body: { api_key: 'idk_one_time_secret_value' } } });
    const other = await claimed('moved', T0);
    await completeIdempotent(other, { status: 201, body: { api_key: 'another' } });
    await db.update(idempotencyRecords).set({ responseBody: row!.responseBody }).where(eq(idempotencyRecords.key, 'moved'));
    await expect(beginIdempotent(scope('moved'), 'hash', after(1), DAY)).rejects.toThrow();
  });
});
