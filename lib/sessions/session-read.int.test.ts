import { sealData } from 'iron-session';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getConfig } from '@/lib/config';
import { as, get, post, signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { recordStatements } from '@/tests/helpers/statements';
import { unsealSessionCookie } from './session-cookie';

const mailbox = useMailbox();
const PASSWORD = 'one round trip for every cookie';

/** The first word of each statement: select, update, ... */
const kinds = (statements: string[]) => statements.map((sql) => sql.trim().split(/\s+/, 1)[0]!.toLowerCase());

describe('the session read path', () => {
  afterEach(() => vi.useRealTimers());

  // ASVS V7.2.1, V7.3.1: every check still runs on each request, in one statement.
  it('reads the session joined with its user in one statement per cookie request', async () => {
    await signUpWithPassword(mailbox, 'ada@example.test', PASSWORD, 'Ada');
    const browser = await signInWithPassword('ada@example.test', PASSWORD);
    const recording = await recordStatements();
    const response = await get('/api/auth/session', { headers: { cookie: browser.cookie } });
    recording.stop();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ user: { email: 'ada@example.test', display_name: 'Ada' }, session: { id: browser.sessionId } });
    expect(kinds(recording.statements)).toEqual(['select']);
    expect(recording.statements[0]).toMatch(/from "sessions" inner join "users"/);
  });

  // ASVS V7.3.1: the idle timeout is kept current by at most one write a minute.
  it('adds only the last_seen_at touch when it is due, and shows the touched idle expiry', async () => {
    await signUpWithPassword(mailbox, 'grace@example.test', PASSWORD);
    const browser = await signInWithPassword('grace@example.test', PASSWORD);
    const later = new Date(Date.now() + 2 * 60_000);
    const recording = await recordStatements();
    const response = await get('/api/auth/session', { headers: { cookie: browser.cookie }, now: () => later });
    recording.stop();
    expect(response.status).toBe(200);
    expect(kinds(recording.statements)).toEqual(['select', 'update']);
    expect(recording.statements[1]).toMatch(/update "sessions" set "last_seen_at"/);
    const { session } = (await response.json()) as { session: { idle_expires_at: string } };
    expect(session.idle_expires_at).toBe(new Date(later.getTime() + getConfig().ttl.sessionIdle * 1000).toISOString());
  });

  // ASVS V7.2.1, V7.3.1, V7.3.2, V7.4.1: a cookie already read (its unsealing remembered) still meets
  // every check: the secret's hash, revocation, idle and absolute expiry.
  it('still refuses a known cookie with a wrong secret, revoked, idle or past its lifetime', async () => {
    await signUpWithPassword(mailbox, 'hedy@example.test', PASSWORD);
    const browser = await signInWithPassword('hedy@example.test', PASSWORD);
    const read = (at = Date.now(), cookie = browser.cookie) => get('/api/auth/session', { headers: { cookie }, now: () => new Date(at) });
    expect((await read()).status).toBe(200);
    const forged = await sealData({ sid: browser.sessionId, secret: 'not the secret' }, { password: getConfig().sessionSecret, ttl: 3600 });
    expect((await read(Date.now(), `session=${forged}`)).status).toBe(401);
    const { sessionIdle, sessionAbsolute } = getConfig().ttl;
    expect((await read(Date.now() + (sessionIdle + 60) * 1000)).status).toBe(401);
    expect((await read(Date.now() + (sessionAbsolute + 60) * 1000)).status).toBe(401);
    expect((await read()).status).toBe(200);
    await post('/api/auth/sessions/revoke', { session_id: browser.sessionId }, { headers: as(browser) });
    expect((await read()).status).toBe(401);
  });

  // ASVS V7.3.2: a remembered unsealing never outlives the seal's own expiry.
  it('does not serve a remembered cookie past its seal expiry', async () => {
    const sealed = await sealData({ sid: crypto.randomUUID(), secret: 's' }, { password: getConfig().sessionSecret, ttl: 1 });
    expect(await unsealSessionCookie(sealed)).not.toBeNull();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 5 * 60_000);
    expect(await unsealSessionCookie(sealed)).toBeNull();
  });
});
