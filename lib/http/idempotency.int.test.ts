/**
 * Idempotent executions commit their writes and the stored answer together, or nothing; a crashed
 * execution holds its key only for a short lease; a takeover never lets two executions complete.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents } from '@/lib/db/schema';
import { beginIdempotent, hashRequest, IDEMPOTENCY_LEASE_SECONDS } from '@/lib/platform';
import { call, ORIGIN, problemOf } from '@/tests/helpers/http';
import {
  delegatedWriteOperation,
  faults,
  idempotentExecutions,
  idempotentWriteOperation,
  pausedExecutions,
  WRITE_ACTION,
} from '@/tests/helpers/test-operations';

const LEASE_SECONDS = IDEMPOTENCY_LEASE_SECONDS;
const T0 = new Date('2026-11-22T09:00:00Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

afterEach(() => {
  faults.afterWrite = null;
});

const send = (key: string, body: Record<string, unknown>, now = T0) =>
  call(idempotentWriteOperation, { headers: { origin: ORIGIN, 'idempotency-key': key }, body, now: () => now });

async function rowsFor(value: string): Promise<number> {
  const rows = await (
    await getDb()
  )
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, WRITE_ACTION), eq(auditEvents.subjectId, value)));
  return rows.length;
}

async function untilPaused(count: number) {
  for (let i = 0; i < 500 && pausedExecutions().length < count; i++) await new Promise((r) => setTimeout(r, 10));
  expect(pausedExecutions()).toHaveLength(count);
}

describe('idempotent executions are one transaction with their stored answer', () => {
  // ASVS V16.5.3
  it('commits nothing when the handler fails after writing, and frees the key for a retry', async () => {
    faults.afterWrite = 'server';
    const failed = await send('write-5xx', { value: 'five-hundred' });
    expect(failed.status).toBe(500);
    expect(await rowsFor('five-hundred')).toBe(0);
    faults.afterWrite = null;
    const retried = await send('write-5xx', { value: 'five-hundred' });
    expect(retried.status).toBe(201);
    expect(await rowsFor('five-hundred')).toBe(1);
    const replayed = await send('write-5xx', { value: 'five-hundred' });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(await retried.json());
    expect(await rowsFor('five-hundred')).toBe(1);
  });

  it('keeps a client error as the final answer: replayed, never run again', async () => {
    faults.afterWrite = 'client';
    const first = await send('write-4xx', { value: 'four-hundred' });
    expect((await problemOf(first)).code).toBe('conflict');
    const executions = idempotentExecutions();
    faults.afterWrite = null;
    const replayed = await send('write-4xx', { value: 'four-hundred' });
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(idempotentExecutions()).toBe(executions);
  });

  it('lets a retry take over the key of a crashed execution once its lease has run out', async () => {
    const body = { value: 'crashed' };
    // What a process that died mid-request leaves behind: a claimed key, never completed or released.
    await beginIdempotent(
      { principal: 'anonymous', operationId: idempotentWriteOperation.id, key: 'write-crash' },
      hashRequest('POST', idempotentWriteOperation.path, JSON.stringify(body)),
      T0,
      86_400,
    );
    const tooSoon = await send('write-crash', body, later(LEASE_SECONDS - 1));
    expect((await problemOf(tooSoon)).code).toBe('idempotency_request_in_flight');
    const takenOver = await send('write-crash', body, later(LEASE_SECONDS + 1));
    expect(takenOver.status).toBe(201);
    expect(await rowsFor('crashed')).toBe(1);
  });

  it('rolls back a slow original whose claim was taken over: exactly one execution completes', async () => {
    const body = { value: 'slow', pause: true };
    const original = send('write-slow', body, T0);
    await untilPaused(1);
    const retry = send('write-slow', body, later(LEASE_SECONDS + 1));
    await untilPaused(2);
    const [resumeOriginal, resumeRetry] = pausedExecutions().splice(0, 2);
    // The original goes on first: it writes, then finds its claim gone and rolls its writes back.
    resumeOriginal!();
    const originalAnswer = await original;
    expect(originalAnswer.status).toBe(409);
    expect((await problemOf(originalAnswer)).code).toBe('idempotency_request_in_flight');
    resumeRetry!();
    const retryAnswer = await retry;
    expect(retryAnswer.status).toBe(201);
    expect(await rowsFor('slow')).toBe(1);
    const replayed = await send('write-slow', body, later(LEASE_SECONDS + 2));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(await retryAnswer.json());
  });
});

describe('idempotent delegated executions (the provider writes through the same transaction)', () => {
  const sendDelegated = (key: string, value: string, status: number) =>
    call(delegatedWriteOperation, { headers: { 'idempotency-key': key }, body: { token: 't', value, status: String(status) } });

  it('commits nothing when the delegate answers 5xx after writing, and frees the key', async () => {
    expect((await sendDelegated('delegate-5xx', 'delegate-failed', 503)).status).toBe(503);
    expect(await rowsFor('delegate-failed')).toBe(0);
    const retried = await sendDelegated('delegate-5xx', 'delegate-failed', 503);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('commits the writes with the stored answer, and replays it', async () => {
    expect((await sendDelegated('delegate-ok', 'delegate-done', 200)).status).toBe(200);
    const replayed = await sendDelegated('delegate-ok', 'delegate-done', 200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual({ done: 'delegate-done' });
    expect(await rowsFor('delegate-done')).toBe(1);
  });
});
