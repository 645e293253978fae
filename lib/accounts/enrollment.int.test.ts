import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { as, newClient, post, signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { findPasswordCredential } from './passwords.repo';
import { findUserByEmail } from '@/lib/users';

const mailbox = useMailbox();
const PASSWORD = 'correct horse battery staple';

async function start(email: string) {
  const response = await post('/api/auth/enrollment/start', { email });
  return { response, body: (await response.json()) as { enrollment_token: string; expires_at: string } };
}
const withToken = (token: string) => ({ headers: { 'x-enrollment-token': token } });

describe('enrollment', () => {
  it('answers a new and a known address identically, mailing a code or an "already have an account" notice', async () => {
    await signUpWithPassword(mailbox, 'known@example.test', PASSWORD);
    const fresh = await start('Fresh@Example.test ');
    const known = await start('known@example.test');
    expect(fresh.response.status).toBe(202);
    expect(known.response.status).toBe(202);
    expect(Object.keys(known.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(known.body.enrollment_token).toHaveLength(fresh.body.enrollment_token.length);
    expect(mailbox.textTo('fresh@example.test')).toMatch(/verification code/);
    expect(mailbox.textTo('known@example.test')).toMatch(/already have one/);
    // The decoy token behaves like a real one but can never verify.
    for (let i = 0; i < 3; i++) {
      const attempt = await post('/api/auth/enrollment/verify-email', { code: String(100000 + i) }, withToken(known.body.enrollment_token));
      expect((await problemOf(attempt)).code).toBe('invalid_code');
    }
  });

  // ASVS V6.4.1, V7.6.2
  it('verifies with the mailed code, then creates the account with a password and no session', async () => {
    const { body } = await start('ada@example.test');
    const early = await post('/api/auth/enrollment/password/complete', { password: PASSWORD }, withToken(body.enrollment_token));
    expect(early.status).toBe(403);
    const verified = await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor('ada@example.test') }, withToken(body.enrollment_token));
    expect(await verified.json()).toEqual({ email_verified: true });
    const created = await post('/api/auth/enrollment/password/complete', { password: PASSWORD, display_name: 'Ada' }, withToken(body.enrollment_token));
    expect(created.status).toBe(201);
    expect(created.headers.get('set-cookie')).toBeNull();
    const { user_id } = (await created.json()) as { user_id: string };
    const db = await getDb();
    const user = await findUserByEmail(db, 'ada@example.test');
    expect(user?.id).toBe(user_id);
    expect(user?.displayName).toBe('Ada');
    const credential = await findPasswordCredential(db, user_id);
    expect(credential?.proof).not.toContain(PASSWORD);
    expect(credential?.chain).toEqual([1000]);
    // Single use: the token is spent.
    const again = await post('/api/auth/enrollment/password/complete', { password: PASSWORD }, withToken(body.enrollment_token));
    expect(again.status).toBe(401);
  });

  // ASVS V6.2.1, V6.2.4, V6.2.5
  it('refuses short and common passwords with 400 weak_password and a reason', async () => {
    const { body } = await start('grace@example.test');
    await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor('grace@example.test') }, withToken(body.enrollment_token));
    for (const password of ['short', 'password123', 'qwertyuiop']) {
      const response = await post('/api/auth/enrollment/password/complete', { password }, withToken(body.enrollment_token));
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(problem.code).toBe('weak_password');
      expect(problem.errors).toEqual([{ path: 'body.password', message: expect.any(String) }]);
    }
    expect((await post('/api/auth/enrollment/password/complete', { password: 'ünïcödé pässwörd ✓' }, withToken(body.enrollment_token))).status).toBe(201);
  });

  // ASVS V6.4.1, V6.6.2, V6.6.3
  it('burns a code after five wrong attempts, and a re-sent code replaces the old one', async () => {
    // The five wrong attempts spend the address's guess budget for its 15-minute window (10:00-10:15).
    const at = (time: string) => () => new Date(`2031-03-03T${time}Z`);
    const started = await post('/api/auth/enrollment/start', { email: 'linus@example.test' }, { now: at('10:01:00') });
    const token = ((await started.json()) as { enrollment_token: string }).enrollment_token;
    const verify = (code: string, now: () => Date) => post('/api/auth/enrollment/verify-email', { code }, { ...withToken(token), now });
    const firstCode = mailbox.codeFor('linus@example.test');
    const wrong = firstCode === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await verify(wrong, at('10:02:00'))).status).toBe(400);
    }
    const burnt = await verify(firstCode, at('10:02:00'));
    expect((await problemOf(burnt)).code).toBe('invalid_code');
    expect((await post('/api/auth/enrollment/resend-email', {}, { ...withToken(token), now: at('10:15:00') })).status).toBe(200);
    const secondCode = mailbox.codeFor('linus@example.test');
    if (secondCode !== firstCode) {
      expect((await verify(firstCode, at('10:15:10'))).status).toBe(400);
    }
    expect((await verify(secondCode, at('10:15:10'))).status).toBe(200);
  });

  // ASVS V6.6.3
  it('limits re-sends with 429', async () => {
    const { body } = await start('margaret@example.test');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post('/api/auth/enrollment/resend-email', {}, withToken(body.enrollment_token))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  // ASVS V2.4.1
  it('limits starts per address with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await start('barbara@example.test')).response.status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  // ASVS V6.4.1, V6.5.5
  it('expires codes and tokens', async () => {
    const { body } = await start('alan@example.test');
    const code = mailbox.codeFor('alan@example.test');
    const later = () => new Date(Date.now() + 11 * 60_000);
    const expiredCode = await post('/api/auth/enrollment/verify-email', { code }, { ...withToken(body.enrollment_token), now: later });
    expect((await problemOf(expiredCode)).code).toBe('invalid_code');
    const muchLater = () => new Date(Date.now() + 31 * 60_000);
    const expiredToken = await post('/api/auth/enrollment/verify-email', { code }, { ...withToken(body.enrollment_token), now: muchLater });
    expect(expiredToken.status).toBe(401);
  });

  it('answers 409 when the address got an account meanwhile', async () => {
    const first = await start('katherine@example.test');
    await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor('katherine@example.test') }, withToken(first.body.enrollment_token));
    const second = await start('katherine@example.test');
    await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor('katherine@example.test') }, withToken(second.body.enrollment_token));
    expect((await post('/api/auth/enrollment/password/complete', { password: PASSWORD }, withToken(second.body.enrollment_token))).status).toBe(201);
    const late = await post('/api/auth/enrollment/password/complete', { password: PASSWORD }, withToken(first.body.enrollment_token));
    expect(late.status).toBe(409);
    expect((await problemOf(late)).code).toBe('conflict');
  });

  it('lets the new account sign in with its password', async () => {
    await signUpWithPassword(mailbox, 'hedy@example.test', PASSWORD);
    const browser = await signInWithPassword('HEDY@example.test', PASSWORD);
    expect(browser.csrf).toBeTruthy();
    expect(as(browser).cookie).toMatch(/^session=/);
  });

  it('never lets an anonymous caller learn the schema: no token, no parsing', async () => {
    const response = await post('/api/auth/enrollment/verify-email', { nonsense: true }, { client: newClient() });
    expect(response.status).toBe(401);
  });
});
