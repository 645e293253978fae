/**
 * Cookie-authenticated operations and HTTP methods (ASVS V3.5.3), over the whole registry: what
 * changes state is never a safe method (a link, an image or a prefetch cannot trigger it) and carries
 * the exact-Origin rule plus the CSRF proof; every safe session operation, driven with a valid session,
 * writes nothing at all, measured by the row triggers of the write counter (only the session's
 * once-a-minute `last_seen_at` touch is allowed, see tests/properties/write-counter.ts).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAuditEvent } from '@/lib/audit/audit.repo';
import { defineOperation, isUnsafe, type AnyOperation } from '@/lib/contract/operation';
import { getDb } from '@/lib/db';
import { OPERATIONS } from '@/lib/http/registry';
import { newClient, signInWithPassword, signUpWithPassword, useMailbox, type Browser } from '../helpers/accounts';
import { call } from '../helpers/http';
import { installWriteCounter, writeCounts, writesBetween } from '../properties/write-counter';

const mailbox = useMailbox();
const label = (op: AnyOperation) => `${op.method} ${op.path}`;
const SAFE_METHODS: readonly string[] = ['GET', 'HEAD'];
const sessionOperations = OPERATIONS.filter((op) => op.auth.kind === 'session');
const safeSessionOperations = sessionOperations.filter((op) => SAFE_METHODS.includes(op.method));

/** What the declaration itself says about changing state. */
function declaresStateChange(op: AnyOperation): string[] {
  const reasons: string[] = [];
  if (op.emits && op.emits.length > 0) reasons.push(`emits ${op.emits.join(', ')}`);
  if (op.idempotency !== 'none') reasons.push(`idempotency ${op.idempotency}`);
  if (op.acceptsForm) reasons.push('accepts a form post');
  if (op.kind !== 'delegated' && [201, 202, 204].includes(op.successStatus)) reasons.push(`answers ${op.successStatus}`);
  return reasons;
}

/** A safe session operation that writes: the defect the walk below must catch (never registered). */
const writingGet = defineOperation({
  id: 'test_writing_get',
  method: 'GET',
  path: '/test/writing-get',
  tag: 'Test',
  summary: 'Writes an audit row on a GET (a defect on purpose)',
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  successStatus: 200,
  response: z.object({ ok: z.literal(true) }),
  testOnly: true,
  handler: async ({ now }) => {
    await insertAuditEvent(await getDb(), { id: randomUUID(), createdAt: now, action: 'test.writing_get', outcome: 'success', actorType: 'session', data: {} });
    return { ok: true as const };
  },
});

let browser: Browser;
beforeAll(async () => {
  await installWriteCounter();
  await signUpWithPassword(mailbox, 'cookie-methods@example.com', 'plum-harbor-lantern-42');
  browser = await signInWithPassword('cookie-methods@example.com', 'plum-harbor-lantern-42');
});

/** Drives a safe operation with the signed-in session (no Origin: a plain navigation or fetch). */
async function writesOf(op: AnyOperation): Promise<{ status: number; writes: string[] }> {
  const before = await writeCounts();
  const response = await call(op, { headers: { cookie: browser.cookie, 'x-forwarded-for': newClient() } });
  await response.body?.cancel();
  return { status: response.status, writes: writesBetween(before, await writeCounts()) };
}

describe('cookie operations and HTTP methods', () => {
  // ASVS V3.5.3
  it('declares no state-changing session operation on a safe method', () => {
    const changing = sessionOperations.filter((op) => declaresStateChange(op).length > 0);
    // The walk is never empty: session operations that change state exist and are all checked.
    expect(changing.length).toBeGreaterThan(0);
    expect(changing.filter((op) => SAFE_METHODS.includes(op.method)).map((op) => `${label(op)}: ${declaresStateChange(op).join('; ')}`)).toEqual([]);
    expect(safeSessionOperations.flatMap((op) => declaresStateChange(op).map((reason) => `${label(op)}: ${reason}`))).toEqual([]);
  });

  // ASVS V3.5.1, V3.5.3
  it('guards every unsafe session operation with the exact Origin (and so the CSRF proof), and refuses cross-site safe ones', () => {
    expect(sessionOperations.filter((op) => isUnsafe(op.method) && op.origin !== 'required').map(label)).toEqual([]);
    expect(safeSessionOperations.filter((op) => op.origin !== 'if-present').map(label)).toEqual([]);
  });

  // ASVS V3.5.3
  it('writes nothing when a safe session operation is called with a valid session', async () => {
    expect(safeSessionOperations.length).toBeGreaterThan(0);
    for (const op of safeSessionOperations) {
      const { status, writes } = await writesOf(op);
      expect(status, label(op)).toBeLessThan(500);
      // A 401 here would mean the walk never reached the operation.
      expect(status, label(op)).not.toBe(401);
      expect(writes, label(op)).toEqual([]);
    }
  });

  it('would catch a safe session operation that writes', async () => {
    const { status, writes } = await writesOf(writingGet);
    expect(status).toBe(200);
    expect(writes).toEqual(['audit_events +1']);
  });
});
