import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS } from '@/lib/contract/actor';
import { getDb } from '@/lib/db';
import { auditEvents } from '@/lib/db/schema';
import { AUDIT_ACTIONS, type AuditAction } from './actions';
import { recordAudit } from './audit';

const at = new Date('2026-11-22T12:00:00Z');
const rowsFor = async (requestId: string) => (await getDb()).select().from(auditEvents).where(eq(auditEvents.requestId, requestId));
// Loose on purpose: these tests hand recordAudit what the type system would refuse.
const recordLoosely = recordAudit as unknown as (db: Parameters<typeof recordAudit>[0], input: Record<string, unknown>) => Promise<void>;

describe('audit data: an explicit allow-list per action', () => {
  it('keeps harmless fields the old deny-list dropped (passkey_id)', async () => {
    await recordAudit(await getDb(), {
      action: 'signin.passkey',
      outcome: 'success',
      actor: ANONYMOUS,
      requestId: 'audit-keep',
      data: { passkey_id: 'pk-1' },
      at,
    });
    const [row] = await rowsFor('audit-keep');
    expect(row!.data).toEqual({ passkey_id: 'pk-1' });
  });

  it('stores every allowed field of every action, unchanged', async () => {
    const db = await getDb();
    for (const [action, fields] of Object.entries(AUDIT_ACTIONS)) {
      const data = Object.fromEntries(fields.map((field, i) => [field, `value-${i}`]));
      await recordLoosely(db, { action, outcome: 'success', actor: ANONYMOUS, requestId: `audit-all-${action}`, data, at });
      const [row] = await rowsFor(`audit-all-${action}`);
      expect(row!.data, action).toEqual(data);
    }
  });

  it('refuses a field the action does not allow, writing nothing (a programming error, not a silent drop)', async () => {
    const db = await getDb();
    await expect(
      recordLoosely(db, {
        action: 'session.revoked',
        outcome: 'success',
        actor: ANONYMOUS,
        requestId: 'audit-extra',
        data: { reason: 'x', ip: '192.0.2.1' },
        at,
      }),
    ).rejects.toThrow(/ip/);
    expect(await rowsFor('audit-extra')).toEqual([]);
  });

  it('refuses an action that is not in the table', async () => {
    await expect(recordLoosely(await getDb(), { action: 'made.up', outcome: 'success', actor: ANONYMOUS, requestId: 'audit-unknown', at })).rejects.toThrow(
      /made\.up/,
    );
    expect(await rowsFor('audit-unknown')).toEqual([]);
  });

  // ASVS V14.2.4
  it('never allows a field whose name says secret, credential material or network identity', () => {
    const secretLike = /password|secret|token|hash|cookie|otp|assertion|signature|credential|user_?agent|(^|_)ip($|_)|address|(^|_)code$|(^|_)key$/i;
    const allowed = (Object.keys(AUDIT_ACTIONS) as AuditAction[]).flatMap((action) => AUDIT_ACTIONS[action].map((field) => `${action}: ${field}`));
    expect(allowed.filter((entry) => secretLike.test(entry.split(': ')[1]!))).toEqual([]);
  });
});
