/**
 * Sign-up from an invitation link, through the real pipeline: the mail says who invites to what; the
 * link's token starts an enrollment for the invited address only, verified without a code; the
 * invitation stays pending until the new account accepts it, once; every unusable link gets the one
 * 404, and an address that has an account gets 409.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db';
import { auditEvents, invitations, users } from '@/lib/db/schema';
import { post, signInWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { acceptInvitation, asBrowser, invite, ownedOrganization, PASSWORD, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50' });
const START = '/api/auth/enrollment/invitation';
const address = (label: string) => `${label}.${randomUUID().slice(0, 8)}@example.test`;
const mailsTo = (to: string) => mailbox.messages.filter((m) => m.to.includes(to)).length;

async function invited(label = 'invitee', role = 'member') {
  const { owner, id } = await ownedOrganization(mailbox);
  const email = address(label);
  const { id: invitationId, token } = await invite(owner, id, email, role, mailbox);
  return { owner, id, email, invitationId, token };
}

describe('the invitation mail', () => {
  it('names who invites (name and address), the organization and the role', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    await asBrowser(owner.browser, 'PATCH', '/api/auth/profile', { body: { display_name: 'Ada Lovelace' } });
    const email = address('named');
    await invite(owner, id, email, 'admin', mailbox);
    const text = mailbox.textTo(email);
    expect(text).toContain(`Ada Lovelace (${owner.email}) invited you to join the organization "Acme"`);
    expect(text).toContain('as admin.');
    expect(mailbox.lastTo(email).raw).toMatch(/Subject: .*Ada Lovelace/);
  });

  it('names the inviter by address when they gave no name', async () => {
    const { owner, email } = await invited('plain');
    expect(mailbox.textTo(email)).toContain(`${owner.email} invited you to join the organization "Acme" on`);
  });
});

describe('sign-up from an invitation link', () => {
  it('starts a verified enrollment for the invited address, mails no code, and the new account joins with the same link once', async () => {
    const { id, email, invitationId, token } = await invited();
    const mails = mailsTo(email);
    const started = await post(START, { token });
    expect(started.status).toBe(201);
    const body = (await started.json()) as { enrollment_token: string; expires_at: string; email: string };
    expect(body).toEqual({ enrollment_token: expect.any(String), expires_at: expect.any(String), email });
    const headers = { 'x-enrollment-token': body.enrollment_token };

    // Verified already: no code mail, and a re-send has nothing to send.
    const resend = await post('/api/auth/enrollment/resend-email', {}, { headers });
    expect(resend.status).toBe(409);
    expect(mailsTo(email)).toBe(mails);
    const created = await post('/api/auth/enrollment/password/complete', { password: PASSWORD }, { headers });
    expect(created.status).toBe(201);
    const userId = ((await created.json()) as { user_id: string }).user_id;
    const [user] = await (await getDb()).select().from(users).where(eq(users.id, userId));
    expect(user).toMatchObject({ email, emailVerifiedAt: expect.any(Date) });

    // The enrollment is single use; the invitation is still the invitee's to accept.
    expect((await post('/api/auth/enrollment/password/complete', { password: PASSWORD }, { headers })).status).toBe(401);
    const [row] = await (await getDb()).select().from(invitations).where(eq(invitations.id, invitationId));
    expect(row?.status).toBe('pending');
    const invitee: Person = { userId, email, browser: await signInWithPassword(email, PASSWORD) };
    const accepted = await acceptInvitation(invitee, token);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ organization_id: id });
    // Used: the link starts nothing more.
    expect((await post(START, { token })).status).toBe(404);

    const [audited] = await (
      await getDb()
    )
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'enrollment.email_verification'), eq(auditEvents.requestId, started.headers.get('x-request-id')!)));
    expect(audited?.data).toEqual({ proof: 'invitation' });
  });

  it('answers unknown, revoked and expired links with the one 404', async () => {
    const unknown = await post(START, { token: 'not-a-real-invitation-token' });
    expect(unknown.status).toBe(404);
    expect(await problemOf(unknown)).toMatchObject({ code: 'not_found', detail: 'This invitation link is not valid or has expired.' });

    const revoked = await invited('revoked');
    const revoke = await asBrowser(revoked.owner.browser, 'DELETE', '/api/organizations/{id}/invitations/{invitation_id}', {
      params: { id: revoked.id, invitation_id: revoked.invitationId },
    });
    expect(revoke.status).toBe(200);
    expect((await post(START, { token: revoked.token })).status).toBe(404);

    const stale = await invited('stale');
    const later = () => new Date(Date.now() + getConfig().ttl.invitation * 1000 + 60_000);
    expect((await post(START, { token: stale.token }, { now: later })).status).toBe(404);
  });

  it('refuses an address that has an account (409) and takes no other address', async () => {
    const existing = await person(mailbox, 'existing');
    const { owner, id } = await ownedOrganization(mailbox);
    const { token } = await invite(owner, id, existing.email, 'member', mailbox);
    const refused = await post(START, { token });
    expect(refused.status).toBe(409);
    expect((await problemOf(refused)).detail).toMatch(/sign in to accept/);

    const other = await invited('other');
    expect((await post(START, { token: other.token, email: address('attacker') })).status).toBe(400);
  });
});
