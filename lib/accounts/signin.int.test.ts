import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { auditEvents } from '@/lib/db/schema';
import { as, browserFrom, cookieFrom, get, newClient, post, signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { withEnv } from '@/tests/setup/state';

// Lockout needs more than 10 attempts a minute from one account: raise the buckets, never disable them.
const mailbox = useMailbox({ RATE_LIMIT_SCALE: '5' });
const PASSWORD = 'a long and unusual passphrase';

const withoutRequestId = async (response: Response) => {
  const { request_id: _ignored, ...rest } = await problemOf(response);
  return rest;
};

describe('password sign-in', () => {
  // ASVS V3.3.2, V3.3.4, V7.2.2
  it('issues a fresh session (new id every time) with a cookie and a CSRF token', async () => {
    await signUpWithPassword(mailbox, 'ada@example.test', PASSWORD);
    const first = await post('/api/auth/signin/password', { email: 'ada@example.test', password: PASSWORD });
    expect(first.status).toBe(201);
    const setCookie = first.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^session=Fe26\.2\*/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    const body = await first.json();
    expect(body.user.email).toBe('ada@example.test');
    expect(body.session.amr).toEqual(['pwd']);
    expect(body.session.step_up_method).toBe('password');
    const second = await signInWithPassword('ada@example.test', PASSWORD);
    expect(second.sessionId).not.toBe(body.session.id);
  });

  it('fails identically for an unknown account, a wrong password and a locked account', async () => {
    await signUpWithPassword(mailbox, 'grace@example.test', PASSWORD);
    const unknown = await post('/api/auth/signin/password', { email: 'nobody@example.test', password: PASSWORD });
    const wrong = await post('/api/auth/signin/password', { email: 'grace@example.test', password: 'not the password' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const unknownBody = await withoutRequestId(unknown);
    expect(unknownBody.code).toBe('invalid_credentials');
    expect(await withoutRequestId(wrong)).toEqual(unknownBody);
    for (let i = 0; i < 9; i++) await post('/api/auth/signin/password', { email: 'grace@example.test', password: `wrong ${i}` });
    const locked = await post('/api/auth/signin/password', { email: 'grace@example.test', password: PASSWORD });
    expect(locked.status).toBe(401);
    expect(await withoutRequestId(locked)).toEqual(unknownBody);
  });

  // ASVS V6.3.1
  it('locks password sign-in after 10 failures, tells the owner, keeps e-mail codes working, and ends the lock', async () => {
    await signUpWithPassword(mailbox, 'linus@example.test', PASSWORD);
    for (let i = 0; i < 10; i++) {
      expect((await post('/api/auth/signin/password', { email: 'linus@example.test', password: `guess ${i}` })).status).toBe(401);
    }
    expect(mailbox.textTo('linus@example.test')).toMatch(/paused for 15 minutes/);
    expect((await post('/api/auth/signin/password', { email: 'linus@example.test', password: PASSWORD })).status).toBe(401);

    const started = await post('/api/auth/signin/email-otp/start', { email: 'linus@example.test' });
    const { challenge_id } = await started.json();
    const byCode = await post('/api/auth/signin/email-otp/complete', { challenge_id, code: mailbox.codeFor('linus@example.test') });
    expect(byCode.status).toBe(201);

    const afterLock = () => new Date(Date.now() + 16 * 60_000);
    expect((await post('/api/auth/signin/password', { email: 'linus@example.test', password: PASSWORD }, { now: afterLock })).status).toBe(201);
  });

  // ASVS V6.3.1
  it('rate-limits password attempts per client', async () => {
    const restore = withEnv({ RATE_LIMIT_SCALE: '1' });
    try {
      const client = newClient();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await post('/api/auth/signin/password', { email: `x${i}@example.test`, password: 'whatever1' }, { client })).status);
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses[10]).toBe(429);
    } finally {
      restore();
    }
  });

  // ASVS V16.3.1
  it('records sign-in attempts in the audit trail without secrets', async () => {
    await signUpWithPassword(mailbox, 'katherine@example.test', PASSWORD);
    await post('/api/auth/signin/password', { email: 'katherine@example.test', password: 'wrong password' });
    await signInWithPassword('katherine@example.test', PASSWORD);
    const rows = await (
      await getDb()
    )
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'signin.password')));
    expect(rows.map((r) => r.outcome)).toEqual(expect.arrayContaining(['failure', 'success']));
    const text = JSON.stringify(rows);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('wrong password');
    expect(text).not.toContain('katherine@example.test');
  });
});

describe('e-mail code sign-in', () => {
  // An e-mail code signs in (amr otp) but opens no step-up window; a code is bound to its challenge.
  // ASVS V6.6.2
  it('answers known and unknown addresses identically and signs in once per code', async () => {
    await signUpWithPassword(mailbox, 'hedy@example.test', PASSWORD);
    const unknown = await post('/api/auth/signin/email-otp/start', { email: 'ghost@example.test' });
    const known = await post('/api/auth/signin/email-otp/start', { email: 'hedy@example.test' });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(Object.keys(await unknown.json()).sort()).toEqual(['challenge_id', 'expires_at']);
    expect(mailbox.textTo('ghost@example.test')).toMatch(/no account uses it/);
    const { challenge_id } = await known.json();
    const code = mailbox.codeFor('hedy@example.test');
    const signedIn = await post('/api/auth/signin/email-otp/complete', { challenge_id, code });
    expect(signedIn.status).toBe(201);
    const browser = await browserFrom(signedIn);
    const session = await (await get('/api/auth/session', { headers: { cookie: browser.cookie } })).json();
    expect(session.session.amr).toEqual(['otp']);
    expect(session.session.step_up_at).toBeNull();
    const reused = await post('/api/auth/signin/email-otp/complete', { challenge_id, code });
    expect((await problemOf(reused)).code).toBe('invalid_code');
  });

  it('never signs in through a decoy challenge', async () => {
    const started = await post('/api/auth/signin/email-otp/start', { email: 'phantom@example.test' });
    const { challenge_id } = await started.json();
    for (const code of ['000000', '123456', '999999']) {
      expect((await post('/api/auth/signin/email-otp/complete', { challenge_id, code })).status).toBe(400);
    }
  });
});

describe('step-up with password', () => {
  // ASVS V7.2.4: re-authentication issues a new session token and ends the old one.
  it('records the step-up time on the session, and refuses a wrong password generically', async () => {
    await signUpWithPassword(mailbox, 'barbara@example.test', PASSWORD);
    const started = await post('/api/auth/signin/email-otp/start', { email: 'barbara@example.test' });
    const { challenge_id } = await started.json();
    const browser = await browserFrom(await post('/api/auth/signin/email-otp/complete', { challenge_id, code: mailbox.codeFor('barbara@example.test') }));
    const wrong = await post('/api/auth/step-up/password', { password: 'nope nope nope' }, { headers: as(browser) });
    expect((await problemOf(wrong)).code).toBe('invalid_credentials');
    const noCsrf = await post('/api/auth/step-up/password', { password: PASSWORD }, { headers: { cookie: browser.cookie } });
    expect((await problemOf(noCsrf)).code).toBe('csrf_failed');
    const ok = await post('/api/auth/step-up/password', { password: PASSWORD }, { headers: as(browser) });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.step_up_method).toBe('password');
    // ASVS V7.2.4: the step-up renews the session's secret; only the new cookie works from now on.
    const renewed = cookieFrom(ok);
    expect(renewed).not.toBe(browser.cookie);
    expect((await get('/api/auth/session', { headers: { cookie: browser.cookie } })).status).toBe(401);
    const session = await (await get('/api/auth/session', { headers: { cookie: renewed } })).json();
    expect(session.session).toMatchObject({ id: browser.sessionId, step_up_at: body.step_up_at });
    // Same session id, so the CSRF token the page holds stays valid.
    expect(session.csrf_token).toBe(browser.csrf);
  });
});
