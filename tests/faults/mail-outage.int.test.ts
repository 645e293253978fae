/**
 * The mail server refuses (421) or is gone (nothing listens on its port), with SMTP configured as in
 * production: enrollment, e-mail code sign-in, recovery and invitations answer 503 and leave nothing
 * behind (no challenge, invitation, audit row or outbox event), and the same request succeeds once the
 * mail server is back, with the code or link delivered.
 */
import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents, emailChallenges, invitations, outboxEvents } from '@/lib/db/schema';
import { post, useMailbox } from '@/tests/helpers/accounts';
import { asBrowser, invitationTokenFor, ownedOrganization } from '@/tests/helpers/organizations';

const mailbox = useMailbox();

/** Rows of every table a mailing use case writes, so "nothing behind" is a comparison, not a hope. */
async function footprint(): Promise<Record<string, number>> {
  const db = await getDb();
  const tables = { emailChallenges, invitations, auditEvents, outboxEvents };
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) counts[name] = (await db.select({ n: count() }).from(table))[0]!.n;
  return counts;
}

async function refusedWithoutTrace(attempt: () => Promise<Response>): Promise<void> {
  const before = await footprint();
  const mailsBefore = mailbox.messages.length;
  const response = await attempt();
  expect(response.status).toBe(503);
  expect(((await response.json()) as { code: string }).code).toBe('service_unavailable');
  expect(response.headers.get('x-request-id')).toBeTruthy();
  expect(await footprint()).toEqual(before);
  expect(mailbox.messages.length).toBe(mailsBefore);
}

const OUTAGES = {
  refusing: { begin: async () => mailbox.outage.refuse(true), end: async () => mailbox.outage.refuse(false) },
  unreachable: { begin: () => mailbox.outage.stop(), end: () => mailbox.outage.restart() },
} as const;

describe.each(Object.entries(OUTAGES))('mail server %s', (_name, outage) => {
  it('enrollment, e-mail sign-in and recovery answer 503, keep nothing, and work once mail is back', async () => {
    const address = `outage.${Math.random().toString(36).slice(2)}@example.test`;
    // Enrollment last: for an address without an account, only its mail carries a code.
    const starts = ['/api/auth/signin/email-otp/start', '/api/auth/recovery/start', '/api/auth/enrollment/start'];
    await outage.begin();
    try {
      for (const path of starts) await refusedWithoutTrace(() => post(path, { email: address }));
    } finally {
      await outage.end();
    }
    for (const path of starts) {
      const retried = await post(path, { email: address });
      expect(retried.status, path).toBe(202);
    }
    // Each retry was delivered: three mails, the last with the enrollment code.
    expect(mailbox.codeFor(address)).toMatch(/^\d{6}$/);
    expect(mailbox.messages.filter((m) => m.to.includes(address))).toHaveLength(starts.length);
  });

  it('an invitation answers 503 and keeps nothing, and is created and mailed once mail is back', async () => {
    const { owner, id } = await ownedOrganization(mailbox, 'mail-outage');
    const invitee = `invitee.${Math.random().toString(36).slice(2)}@example.test`;
    const invite = () => asBrowser(owner.browser, 'POST', '/api/organizations/{id}/invitations', { params: { id }, body: { email: invitee, role: 'member' } });
    await outage.begin();
    try {
      await refusedWithoutTrace(invite);
    } finally {
      await outage.end();
    }
    const retried = await invite();
    expect(retried.status).toBe(201);
    expect(invitationTokenFor(mailbox, invitee)).toBeTruthy();
  });
});
