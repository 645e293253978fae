import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { claimKey, deleteExpiredRecords } from './idempotency.repo';
import { deleteExpiredCounters, hitCounter } from './rate-limit.repo';

describe('sweeping expired short-lived rows', () => {
  it('deletes expired rate-limit windows and keeps live ones', async () => {
    const db = await getDb();
    const now = new Date('2026-11-22T12:00:00Z');
    await hitCounter(db, 'test_only', 'old', new Date('2026-11-22T11:58:00Z'), new Date('2026-11-22T11:59:00Z'));
    await hitCounter(db, 'test_only', 'live', new Date('2026-11-22T12:00:00Z'), new Date('2026-11-22T12:01:00Z'));
    expect(await deleteExpiredCounters(db, now)).toBe(1);
    expect(await deleteExpiredCounters(db, now)).toBe(0);
  });

  it('deletes expired idempotency records and keeps live ones', async () => {
    const db = await getDb();
    const now = new Date('2026-11-22T12:00:00Z');
    const claim = (at: Date, expiresAt: Date) => ({ requestHash: 'h', token: 't', now: at, leaseExpiresAt: at, expiresAt });
    await claimKey(db, { principal: 'p', operationId: 'op', key: 'old' }, claim(new Date('2026-11-21T12:00:00Z'), new Date('2026-11-22T11:00:00Z')));
    await claimKey(db, { principal: 'p', operationId: 'op', key: 'live' }, claim(now, new Date('2026-11-23T12:00:00Z')));
    expect(await deleteExpiredRecords(db, now)).toBe(1);
    expect(await deleteExpiredRecords(db, now)).toBe(0);
  });
});
