import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents, outboxEvents } from '@/lib/db/schema';
import { as, get, signInWithPassword, signUpWithPassword, useMailbox, type Browser } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN, problemOf } from '@/tests/helpers/http';
import { mintAccessToken as accessToken } from '@/tests/helpers/oauth';

const mailbox = useMailbox();
const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
const getMe = (value: string) => call(operation('GET', '/api/v1/me'), { headers: bearer(value) });
const patchMe = (value: string, body: unknown, key: string | null = `k-${Math.random()}`) =>
  call(operation('PATCH', '/api/v1/me'), { headers: { ...bearer(value), ...(key ? { 'idempotency-key': key } : {}) }, body });

describe('GET /api/v1/me', () => {
  // ASVS V8.2.3, V10.3.2
  it('returns the profile, with the e-mail only under identity.email.read (or its alias email)', async () => {
    const userId = await signUpWithPassword(mailbox, 'ada@example.test', 'profile reading passphrase', 'Ada');
    const profileOnly = await getMe((await accessToken(userId, 'openid identity.profile.read')).value);
    expect(profileOnly.status).toBe(200);
    const body = await profileOnly.json();
    expect(body).toMatchObject({ id: userId, display_name: 'Ada' });
    expect(body).not.toHaveProperty('email');
    for (const scope of ['openid identity.email.read', 'openid email']) {
      expect((await (await getMe((await accessToken(userId, scope)).value)).json()).email).toBe('ada@example.test');
    }
  });

  // ASVS V10.3.2
  it('answers 401 with a Bearer challenge naming the resource metadata, and 403 naming the missing scope', async () => {
    const userId = await signUpWithPassword(mailbox, 'grace@example.test', 'profile reading passphrase');
    const none = await call(operation('GET', '/api/v1/me'));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm=".*", resource_metadata="/);
    const forged = await getMe('not-a-real-token');
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const narrow = await getMe((await accessToken(userId, 'openid')).value);
    expect(narrow.status).toBe(403);
    expect((await problemOf(narrow)).code).toBe('insufficient_scope');
    expect(narrow.headers.get('www-authenticate')).toContain('scope="identity.profile.read identity.email.read"');
  });

  // ASVS V9.2.1, V9.2.3, V10.3.1
  it('refuses expired, revoked and MCP-audience tokens', async () => {
    const userId = await signUpWithPassword(mailbox, 'linus@example.test', 'profile reading passphrase');
    const expiring = await accessToken(userId, 'identity.profile.read', { expiresIn: 1 });
    expect((await getMe(expiring.value)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await getMe(expiring.value)).status).toBe(401);
    const revoked = await accessToken(userId, 'identity.profile.read');
    await revoked.token.destroy();
    expect((await getMe(revoked.value)).status).toBe(401);
    const forMcp = await accessToken(userId, 'identity.profile.read', { audience: `${ORIGIN}/mcp` });
    expect((await getMe(forMcp.value)).status).toBe(401);
  });
});

describe('PATCH /api/v1/me', () => {
  it('changes display_name, locale and timezone, emitting a privacy-minimised event', async () => {
    const userId = await signUpWithPassword(mailbox, 'hedy@example.test', 'profile writing passphrase');
    const { value } = await accessToken(userId, 'identity.profile.write identity.profile.read');
    const response = await patchMe(value, { display_name: 'Hedy', locale: 'de-AT', timezone: 'Europe/Vienna' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ display_name: 'Hedy', locale: 'de-AT', timezone: 'Europe/Vienna' });
    const events = await (await getDb()).select().from(outboxEvents).where(eq(outboxEvents.userId, userId));
    const updated = events.filter((e) => e.type === 'identity.user.updated');
    expect(updated.map((e) => e.payload)).toEqual([{ user_id: userId, changed: 'display_name,locale,timezone' }]);
  });

  // ASVS V8.2.3
  it('refuses read-only fields, bad values and a missing Idempotency-Key, and replays a repeated key', async () => {
    const userId = await signUpWithPassword(mailbox, 'alan@example.test', 'profile writing passphrase');
    const { value } = await accessToken(userId, 'identity.profile.write');
    for (const body of [{ email: 'other@example.test' }, { locale: 'not a locale!' }, { timezone: 'Mars/Olympus' }, {}]) {
      const response = await patchMe(value, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await problemOf(await patchMe(value, { display_name: 'Alan' }, null))).code).toBe('idempotency_key_required');
    const first = await patchMe(value, { display_name: 'Alan' }, 'same-key');
    const again = await patchMe(value, { display_name: 'Alan' }, 'same-key');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect((await patchMe(value, { display_name: 'Turing' }, 'same-key')).status).toBe(422);
    const readOnly = await patchMe((await accessToken(userId, 'identity.profile.read')).value, { display_name: 'x' });
    expect((await problemOf(readOnly)).code).toBe('insufficient_scope');
  });
});

describe('PATCH /api/auth/profile (the account page)', () => {
  const patchProfile = (headers: Record<string, string>, body: unknown) => call(operation('PATCH', '/api/auth/profile'), { headers, body });
  const asBrowser = (browser: Browser) => ({ origin: ORIGIN, ...as(browser) });

  it('changes the profile with the session, emitting the same event and audit as the bearer PATCH', async () => {
    const userId = await signUpWithPassword(mailbox, 'rosalind@example.test', 'profile page passphrase');
    const browser = await signInWithPassword('rosalind@example.test', 'profile page passphrase');
    const response = await patchProfile(asBrowser(browser), { display_name: 'Rosalind', locale: 'en-GB', timezone: 'Europe/London' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: userId,
      email: 'rosalind@example.test',
      display_name: 'Rosalind',
      locale: 'en-GB',
      timezone: 'Europe/London',
    });
    const session = await (await get('/api/auth/session', { headers: { cookie: browser.cookie } })).json();
    expect(session.user).toMatchObject({ display_name: 'Rosalind', locale: 'en-GB', timezone: 'Europe/London' });

    // Clearing is allowed (null), and the bearer PATCH writes the same kind of event.
    expect((await patchProfile(asBrowser(browser), { display_name: null })).status).toBe(200);
    const { value } = await accessToken(userId, 'identity.profile.write');
    expect((await patchMe(value, { locale: 'fr' })).status).toBe(200);
    const events = await (await getDb()).select().from(outboxEvents).where(eq(outboxEvents.userId, userId));
    expect(events.filter((e) => e.type === 'identity.user.updated').map((e) => e.payload)).toEqual([
      { user_id: userId, changed: 'display_name,locale,timezone' },
      { user_id: userId, changed: 'display_name' },
      { user_id: userId, changed: 'locale' },
    ]);
    const audits = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.action, 'profile.updated'));
    expect(audits.filter((a) => a.actorId === userId).map((a) => [a.actorType, a.data])).toEqual([
      ['session', { fields: 'display_name,locale,timezone' }],
      ['session', { fields: 'display_name' }],
      ['bearer', { fields: 'locale' }],
    ]);
  });

  it('validates like the bearer PATCH and keeps the field pointer in errors[].path', async () => {
    await signUpWithPassword(mailbox, 'chien-shiung@example.test', 'profile page passphrase');
    const browser = await signInWithPassword('chien-shiung@example.test', 'profile page passphrase');
    expect(operation('PATCH', '/api/auth/profile').body).toBe(operation('PATCH', '/api/v1/me').body);
    for (const body of [{ email: 'other@example.test' }, { timezone: 'Mars/Olympus' }, {}, { display_name: '   ' }]) {
      expect((await patchProfile(asBrowser(browser), body)).status, JSON.stringify(body)).toBe(400);
    }
    const badLocale = await problemOf(await patchProfile(asBrowser(browser), { locale: 'not a locale!' }));
    expect(badLocale.errors).toEqual([{ path: 'body.locale', message: expect.not.stringContaining('body.') }]);
  });

  it('needs the session, the exact Origin and the CSRF token', async () => {
    await signUpWithPassword(mailbox, 'emmy@example.test', 'profile page passphrase');
    const browser = await signInWithPassword('emmy@example.test', 'profile page passphrase');
    const body = { display_name: 'Emmy' };
    expect((await problemOf(await patchProfile({ origin: ORIGIN }, body))).code).toBe('unauthenticated');
    expect((await problemOf(await patchProfile({ origin: ORIGIN, cookie: browser.cookie }, body))).code).toBe('csrf_failed');
    expect((await problemOf(await patchProfile({ ...as(browser), origin: 'https://evil.test' }, body))).code).toBe('origin_mismatch');
    const { value } = await accessToken(
      (await (await get('/api/auth/session', { headers: { cookie: browser.cookie } })).json()).user.id,
      'identity.profile.write',
    );
    expect((await patchProfile({ origin: ORIGIN, ...bearer(value) }, body)).status).toBe(401);
  });
});

describe('GET /api/v1/privacy/export', () => {
  // ASVS V14.2.2, V14.2.4
  it("exports the person's data without secrets, hashes, tokens or network identity, never cached", async () => {
    const userId = await signUpWithPassword(mailbox, 'katherine@example.test', 'privacy export passphrase', 'Katherine');
    const { signInWithPassword } = await import('@/tests/helpers/accounts');
    const browser = await signInWithPassword('katherine@example.test', 'privacy export passphrase', {
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0' },
    });
    const { value } = await accessToken(userId, 'identity.privacy.export');
    expect(
      (await call(operation('GET', '/api/v1/privacy/export'), { headers: bearer((await accessToken(userId, 'identity.profile.read')).value) })).status,
    ).toBe(403);
    const response = await call(operation('GET', '/api/v1/privacy/export'), { headers: bearer(value) });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    const body = JSON.parse(text);
    expect(body.profile).toMatchObject({ id: userId, email: 'katherine@example.test', display_name: 'Katherine' });
    expect(body.sessions.map((s: { id: string }) => s.id)).toContain(browser.sessionId);
    expect(body.authenticators.password.set).toBe(true);
    expect(body.consents.length).toBeGreaterThanOrEqual(1);
    expect(body.activity.map((a: { action: string }) => a.action)).toContain('account.created');
    const db = await getDb();
    const { passwordCredentials, sessions } = await import('@/lib/db/schema');
    const [proof] = await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, userId));
    const storedSessions = await db.select().from(sessions).where(eq(sessions.userId, userId));
    for (const secret of [
      proof!.proof,
      proof!.salt,
      ...storedSessions.map((s) => s.secretHash),
      browser.cookie.split('=')[1]!,
      value,
      'Chrome',
      'Mozilla',
      'privacy export passphrase',
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
