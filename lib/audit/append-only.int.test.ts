/**
 * The audit trail is append-only in the database itself (drizzle/0006_audit_append_only.sql): the
 * application's own connection, the one every request uses, cannot rewrite or remove history; the
 * only change it can make is the privacy erasure, which redacts in place.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type Actor } from '@/lib/contract/actor';
import { getDb, inTransaction } from '@/lib/db';
import { auditEvents } from '@/lib/db/schema';
import { eraseAuditPersonalData, recordAudit } from './index';

const at = new Date('2026-11-23T12:00:00Z');
const sessionOf = (userId: string) => ({ kind: 'session', userId, sessionId: `s-${userId}` }) as unknown as Actor;

async function seed(userId: string, other: string): Promise<string[]> {
  const db = await getDb();
  const requestId = `append-only-${randomUUID()}`;
  await recordAudit(db, { action: 'signin.password', outcome: 'failure', actor: ANONYMOUS, subject: { type: 'user', id: userId }, requestId, at });
  await recordAudit(db, {
    action: 'profile.updated',
    outcome: 'success',
    actor: sessionOf(userId),
    subject: { type: 'user', id: userId },
    requestId,
    data: { fields: 'display_name' },
    at,
  });
  await recordAudit(db, {
    action: 'session.revoked',
    outcome: 'success',
    actor: sessionOf(other),
    subject: { type: 'session', id: 's-x' },
    requestId,
    data: { reason: 'admin', user: userId },
    at,
  });
  await recordAudit(db, {
    action: 'profile.updated',
    outcome: 'success',
    actor: sessionOf(other),
    subject: { type: 'user', id: other },
    requestId,
    data: { fields: 'locale' },
    at,
  });
  const rows = await db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.requestId, requestId));
  return rows.map((r) => r.id);
}

const rowsOf = async (ids: string[]) =>
  (await getDb()).select().from(auditEvents).where(inArray(auditEvents.id, ids)).orderBy(auditEvents.action, auditEvents.actorId);

/** The database's own words for a refusal (drizzle wraps them in "Failed query: ..."). */
async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => null,
    (e: unknown) => e as Error & { cause?: Error },
  );
  expect(error, 'the statement was not refused').not.toBeNull();
  return `${error!.message} ${error!.cause?.message ?? ''}`;
}

describe('audit trail: append-only in the database', () => {
  // ASVS V16.4.2
  it("refuses UPDATE, DELETE and TRUNCATE from the application's own connection (raw SQL and builder), leaving rows as they were", async () => {
    const ids = await seed(randomUUID(), randomUUID());
    const before = await rowsOf(ids);
    const db = await getDb();
    expect(await refusal(db.execute(sql`update audit_events set outcome = 'success' where id = ${ids[0]}`))).toMatch(/append-only: UPDATE refused/);
    expect(await refusal(db.execute(sql`delete from audit_events where id = ${ids[0]}`))).toMatch(/append-only: DELETE refused/);
    expect(await refusal(db.execute(sql`truncate audit_events`))).toMatch(/append-only: TRUNCATE refused/);
    expect(await refusal(db.update(auditEvents).set({ action: 'made.up' }).where(inArray(auditEvents.id, ids)))).toMatch(/append-only/);
    expect(await refusal(db.delete(auditEvents).where(inArray(auditEvents.id, ids)))).toMatch(/append-only/);
    expect(await rowsOf(ids)).toEqual(before);
  });

  // ASVS V16.4.2
  it('lets no one use the erasure marker to rewrite what happened: only redaction passes', async () => {
    const ids = await seed(randomUUID(), randomUUID());
    const before = await rowsOf(ids);
    const rewrite = inTransaction(async (tx) => {
      await tx.execute(sql`select set_config('identity.audit_erasure', 'on', true)`);
      await tx.execute(sql`update audit_events set outcome = 'success', data = '{}'::jsonb where id = ${ids[0]}`);
    });
    expect(await refusal(rewrite)).toMatch(/may only remove personal data/);
    const forge = inTransaction(async (tx) => {
      await tx.execute(sql`select set_config('identity.audit_erasure', 'on', true)`);
      await tx.execute(sql`update audit_events set actor_id = 'someone-else' where id = ${ids[1]}`);
    });
    expect(await refusal(forge)).toMatch(/may only remove personal data/);
    expect(await rowsOf(ids)).toEqual(before);
  });

  // ASVS V16.4.2
  it("erases a user's personal data in place: rows stay, ids and data go, other people's rows are untouched", async () => {
    const user = randomUUID();
    const other = randomUUID();
    const ids = await seed(user, other);
    const before = await rowsOf(ids);
    const redacted = await inTransaction(async (tx) => {
      const count = await eraseAuditPersonalData(tx, user);
      // The marker ends with the erasure: the rest of the transaction is append-only again.
      expect(await refusal(tx.transaction((sp) => sp.execute(sql`update audit_events set data = '{}'::jsonb where id = ${ids[3]}`)))).toMatch(/append-only/);
      return count;
    });
    expect(redacted).toBe(3);
    const after = await rowsOf(ids);
    expect(after.map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
    for (const row of after) {
      const old = before.find((r) => r.id === row.id)!;
      // What happened, when, and with which outcome is still provable.
      expect({ action: row.action, outcome: row.outcome, createdAt: row.createdAt, actorType: row.actorType, requestId: row.requestId }).toEqual({
        action: old.action,
        outcome: old.outcome,
        createdAt: old.createdAt,
        actorType: old.actorType,
        requestId: old.requestId,
      });
    }
    const untouched = after.find((r) => r.subjectId === other)!;
    expect(untouched).toEqual(before.find((r) => r.subjectId === other));
    expect(JSON.stringify(after)).not.toContain(user);
  });
});
