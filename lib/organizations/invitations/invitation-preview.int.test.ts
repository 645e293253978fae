/**
 * The invitation preview (POST /api/organizations/invitations/preview) through the real pipeline: what
 * the invitation page shows before anyone signs in or accepts, one 404 for every unusable link, the
 * per-client bucket, and the token kept out of the audit trail, the outbox, the logs and the answer.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents, outboxEvents } from '@/lib/db/schema';
import { RATE_LIMIT_BUCKETS } from '@/lib/contract/rate-limits';
import { newClient, useMailbox } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN, problemOf } from '@/tests/helpers/http';
import { customRole } from '@/tests/helpers/organization-roles';
import { acceptInvitation, asBrowser, createOrganization, invitationTokenFor, invite, person } from '@/tests/helpers/organizations';
import { withEnv } from '@/tests/setup/state';

// Invitations live five minutes here, inside the step-up window, so `now` can pass an expiry while
// the owner's session and step-up are still good.
const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50', INVITATION_TTL_SECONDS: '300' });
const PREVIEW = '/api/organizations/invitations/preview';
const INVITATION = '/api/organizations/{id}/invitations/{invitation_id}';
const NOT_VALID = 'This invitation link is not valid or has expired.';

afterEach(() => vi.restoreAllMocks());

/** Posts the token as a signed-out browser would (exact Origin, no cookie), from `client`. */
function preview(token: unknown, options: { client?: string; now?: () => Date; origin?: string | null } = {}) {
  const headers: Record<string, string> = { 'x-forwarded-for': options.client ?? newClient() };
  if (options.origin !== null) headers.origin = options.origin ?? ORIGIN;
  return call(operation('POST', PREVIEW), { headers, body: { token }, now: options.now });
}

async function invitedTo(name: string, role = 'admin') {
  const owner = await person(mailbox, 'owner');
  const id = await createOrganization(owner, name);
  const email = `invitee.${randomBytes(4).toString('hex')}@example.test`;
  const { id: invitationId, token } = await invite(owner, id, email, role, mailbox);
  return { owner, id, email, invitationId, token };
}

async function expectInvalid(response: Response) {
  expect(response.status).toBe(404);
  const problem = await problemOf(response);
  expect(problem.code).toBe('not_found');
  expect(problem.detail).toBe(NOT_VALID);
  return problem;
}

describe('previewing an invitation link', () => {
  it('names the organization, the role and the expiry of a pending invitation, and nothing else', async () => {
    const { id, email, invitationId, token } = await invitedTo('Preview Works');
    const response = await preview(token);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('no-store');
    const text = await response.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'organization', 'role_name']);
    expect(body.organization).toEqual({ name: 'Preview Works' });
    expect(body.role_name).toBe('admin');
    const expiresIn = new Date(body.expires_at as string).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(290_000);
    expect(expiresIn).toBeLessThanOrEqual(300_000);
    // Neither the invited address, nor the token, nor any id.
    expect(text).not.toContain(email);
    expect(text).not.toContain(token);
    expect(text).not.toContain(id);
    expect(text).not.toContain(invitationId);
  });

  it('shows a custom role by its name, and previewing changes nothing (the link still accepts)', async () => {
    const owner = await person(mailbox, 'owner');
    const id = await createOrganization(owner, 'Custom Co');
    const roleId = await customRole(owner, id, 'Support desk', ['read', 'invitations.manage']);
    const bob = await person(mailbox, 'bob');
    const { token } = await invite(owner, id, bob.email, roleId, mailbox);

    for (let i = 0; i < 2; i++) expect(await (await preview(token)).json()).toMatchObject({ organization: { name: 'Custom Co' }, role_name: 'Support desk' });
    expect((await acceptInvitation(bob, token)).status).toBe(200);
  });

  it('answers the same 404 for unknown, accepted, revoked, resent-away and expired links', async () => {
    const unknown = await expectInvalid(await preview(randomBytes(32).toString('base64url')));

    const accepted = await invitedTo('Accepted Inc');
    const bob = await person(mailbox, 'bob');
    const forBob = await invite(accepted.owner, accepted.id, bob.email, 'member', mailbox);
    expect((await acceptInvitation(bob, forBob.token)).status).toBe(200);
    const used = await expectInvalid(await preview(forBob.token));

    const revoked = await invitedTo('Revoked Ltd');
    expect((await preview(revoked.token)).status).toBe(200);
    const revoking = await asBrowser(revoked.owner.browser, 'DELETE', INVITATION, { params: { id: revoked.id, invitation_id: revoked.invitationId } });
    expect(revoking.status).toBe(200);
    const gone = await expectInvalid(await preview(revoked.token));

    // A resend mails a new link: the old one previews like any unknown link, the new one works.
    const resent = await invitedTo('Resent SA');
    const again = await asBrowser(resent.owner.browser, 'POST', INVITATION, { params: { id: resent.id, invitation_id: resent.invitationId }, body: {} });
    expect(again.status).toBe(200);
    const stale = await expectInvalid(await preview(resent.token));
    const fresh = invitationTokenFor(mailbox, resent.email);
    expect(fresh).not.toBe(resent.token);
    expect((await preview(fresh)).status).toBe(200);

    const expiring = await invitedTo('Expired GmbH');
    expect((await preview(expiring.token, { now: () => new Date(Date.now() + 299_000) })).status).toBe(200);
    const expired = await expectInvalid(await preview(expiring.token, { now: () => new Date(Date.now() + 301_000) }));

    // One answer: nothing but the request id tells the five apart.
    const strip = ({ request_id: _id, ...rest }: Record<string, unknown>) => rest;
    for (const other of [used, gone, stale, expired]) expect(strip(other)).toEqual(strip(unknown));
  });

  it('refuses a missing or oversized token with 400, and a request without our exact Origin with 403', async () => {
    const { token } = await invitedTo('Strict Org');
    const missing = await call(operation('POST', PREVIEW), { headers: { origin: ORIGIN, 'x-forwarded-for': newClient() }, body: {} });
    expect(missing.status).toBe(400);
    expect((await problemOf(missing)).errors).toEqual([expect.objectContaining({ path: 'body.token' })]);
    expect((await preview('a'.repeat(257))).status).toBe(400);
    expect((await preview(token, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await preview(token, { origin: null })).status).toBe(403);
  });

  it('spends a per-client bucket: 429 once it is used up, whatever the tokens, other clients unaffected', async () => {
    const { token } = await invitedTo('Bucket Org');
    const restore = withEnv({ RATE_LIMIT_SCALE: '1' });
    try {
      const { limit } = RATE_LIMIT_BUCKETS.invitation_preview;
      expect(limit).toBe(30);
      const client = newClient();
      const now = () => new Date('2026-11-23T10:00:05Z');
      const statuses: number[] = [];
      for (let i = 0; i < limit; i++) statuses.push((await preview(randomBytes(32).toString('base64url'), { client, now })).status);
      expect(statuses.every((s) => s === 404)).toBe(true);
      const limited = await preview(token, { client, now });
      expect(limited.status).toBe(429);
      expect((await problemOf(limited)).code).toBe('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // A valid token does not get past a spent bucket; another client still previews it.
      expect((await preview(token, { now })).status).toBe(200);
    } finally {
      restore();
    }
  });

  it('keeps the token out of the audit trail, the outbox and the security log lines', async () => {
    const restore = withEnv({ LOG_LEVEL: 'info' });
    const written: string[] = [];
    const capture = (chunk: string | Uint8Array) => (written.push(String(chunk)), true);
    try {
      const { id, token } = await invitedTo('Quiet Org');
      vi.spyOn(process.stdout, 'write').mockImplementation(capture);
      vi.spyOn(process.stderr, 'write').mockImplementation(capture);
      expect((await preview(token)).status).toBe(200);
      const unknownToken = randomBytes(32).toString('base64url');
      expect((await preview(unknownToken)).status).toBe(404);
      // A refusal is a security log line: it names the kind, never the body.
      expect((await preview(token, { origin: 'https://evil.example' })).status).toBe(403);
      vi.restoreAllMocks();

      const db = await getDb();
      const audit = await db.select().from(auditEvents);
      const events = await db.select().from(outboxEvents).where(eq(outboxEvents.organizationId, id));
      const stored = JSON.stringify([audit, events]);
      expect(audit.length).toBeGreaterThan(0);
      expect(stored).not.toContain(token);
      expect(stored).not.toContain(unknownToken);
      expect(written.join('')).toContain('"kind":"origin_refused"');
      expect(written.join('')).not.toContain(token);
      expect(written.join('')).not.toContain(unknownToken);
    } finally {
      restore();
    }
  });
});
