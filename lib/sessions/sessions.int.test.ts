import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { outboxEvents } from '@/lib/db/schema';
import { as, get, post, signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';

const mailbox = useMailbox();
const PASSWORD = 'sessions are the only truth';

describe('sessions', () => {
  // ASVS V14.2.2, V14.3.2
  it('resolves the current session with user, amr, step-up and CSRF token', async () => {
    expect((await get('/api/auth/session')).status).toBe(401);
    const userId = await signUpWithPassword(mailbox, 'ada@example.test', PASSWORD, 'Ada');
    const browser = await signInWithPassword('ada@example.test', PASSWORD);
    const response = await get('/api/auth/session', { headers: { cookie: browser.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(body).toMatchObject({
      user: { id: userId, email: 'ada@example.test', display_name: 'Ada' },
      session: { id: browser.sessionId, amr: ['pwd'], step_up_method: 'password', step_up_age_seconds: expect.any(Number) },
      csrf_token: browser.csrf,
    });
  });

  // ASVS V7.2.1, V9.1.1, V11.3.3
  it('refuses a tampered or foreign-secret cookie', async () => {
    await signUpWithPassword(mailbox, 'eve@example.test', PASSWORD);
    const browser = await signInWithPassword('eve@example.test', PASSWORD);
    const tampered = `${browser.cookie.slice(0, -4)}AAAA`;
    expect((await get('/api/auth/session', { headers: { cookie: tampered } })).status).toBe(401);
  });

  // ASVS V7.5.2: the person sees every active session.
  it('lists own sessions with safe metadata and marks the current one', async () => {
    await signUpWithPassword(mailbox, 'grace@example.test', PASSWORD);
    const laptop = await signInWithPassword('grace@example.test', PASSWORD, {
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36' },
    });
    await signInWithPassword('grace@example.test', PASSWORD, {
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) Safari/604.1' },
    });
    const { sessions } = await (await get('/api/auth/sessions', { headers: { cookie: laptop.cookie } })).json();
    expect(sessions).toHaveLength(2);
    expect(sessions.find((s: { current: boolean }) => s.current)).toMatchObject({ id: laptop.sessionId, device: 'Chrome on Linux' });
    expect(sessions.find((s: { current: boolean }) => !s.current).device).toBe('Safari on iOS');
    expect(JSON.stringify(sessions)).not.toMatch(/Mozilla|secret|hash/);
  });

  // ASVS V7.2.1
  it('revokes another own session effective on its very next request, and emits a minimal event', async () => {
    const userId = await signUpWithPassword(mailbox, 'linus@example.test', PASSWORD);
    const desk = await signInWithPassword('linus@example.test', PASSWORD);
    const phone = await signInWithPassword('linus@example.test', PASSWORD);
    const revoked = await post('/api/auth/sessions/revoke', { session_id: phone.sessionId }, { headers: as(desk) });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ revoked: true });
    expect(revoked.headers.get('set-cookie')).toBeNull();
    expect((await get('/api/auth/session', { headers: { cookie: phone.cookie } })).status).toBe(401);
    expect((await get('/api/auth/session', { headers: { cookie: desk.cookie } })).status).toBe(200);
    const events = await (await getDb()).select().from(outboxEvents).where(eq(outboxEvents.userId, userId));
    const revokedEvents = events.filter((e) => e.type === 'identity.session.revoked');
    expect(revokedEvents.map((e) => e.payload)).toEqual([{ session_id: phone.sessionId, user_id: userId, reason: 'revoked_by_user' }]);
  });

  // ASVS V8.2.2
  it("cannot revoke someone else's session (404), and needs CSRF", async () => {
    await signUpWithPassword(mailbox, 'mallory@example.test', PASSWORD);
    await signUpWithPassword(mailbox, 'victim@example.test', PASSWORD);
    const mallory = await signInWithPassword('mallory@example.test', PASSWORD);
    const victim = await signInWithPassword('victim@example.test', PASSWORD);
    const foreign = await post('/api/auth/sessions/revoke', { session_id: victim.sessionId }, { headers: as(mallory) });
    expect((await problemOf(foreign)).code).toBe('not_found');
    const noCsrf = await post('/api/auth/sessions/revoke', { session_id: mallory.sessionId }, { headers: { cookie: mallory.cookie } });
    expect((await problemOf(noCsrf)).code).toBe('csrf_failed');
    expect((await get('/api/auth/session', { headers: { cookie: victim.cookie } })).status).toBe(200);
  });

  // ASVS V7.4.1, V14.3.1
  it('signs out when the current session is revoked, clearing the cookie', async () => {
    await signUpWithPassword(mailbox, 'hedy@example.test', PASSWORD);
    const browser = await signInWithPassword('hedy@example.test', PASSWORD);
    const response = await post('/api/auth/sessions/revoke', { session_id: browser.sessionId }, { headers: as(browser) });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/^session=; Max-Age=0/);
    expect((await get('/api/auth/session', { headers: { cookie: browser.cookie } })).status).toBe(401);
  });

  // The idle and absolute lifetimes docs/security.md documents. ASVS V7.3.1, V7.3.2
  it('expires after 24 idle hours, and after 7 days however active', async () => {
    await signUpWithPassword(mailbox, 'alan@example.test', PASSWORD);
    const browser = await signInWithPassword('alan@example.test', PASSWORD);
    const hoursLater = (hours: number) => () => new Date(Date.now() + hours * 3_600_000);
    expect((await get('/api/auth/session', { headers: { cookie: browser.cookie }, now: hoursLater(25) })).status).toBe(401);

    const active = await signInWithPassword('alan@example.test', PASSWORD);
    for (let hours = 20; hours < 7 * 24; hours += 20) {
      expect((await get('/api/auth/session', { headers: { cookie: active.cookie }, now: hoursLater(hours) })).status).toBe(200);
    }
    expect((await get('/api/auth/session', { headers: { cookie: active.cookie }, now: hoursLater(7 * 24 + 1) })).status).toBe(401);
  });
});
