import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { outboxEvents } from '@/lib/db/schema';
import { get, post, signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';

const mailbox = useMailbox();
const OLD = 'the password that was forgotten';
const NEW = 'a brand new recovered passphrase';

async function start(email: string) {
  const response = await post('/api/auth/recovery/start', { email });
  return { response, body: (await response.json()) as { recovery_token: string; expires_at: string } };
}
const withToken = (token: string) => ({ headers: { 'x-recovery-token': token } });

describe('recovery', () => {
  // ASVS V6.4.3
  it('answers known and unknown addresses identically', async () => {
    await signUpWithPassword(mailbox, 'ada@example.test', OLD);
    const known = await start('ada@example.test');
    const unknown = await start('nobody@example.test');
    expect(known.response.status).toBe(202);
    expect(unknown.response.status).toBe(202);
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(unknown.body.recovery_token).toHaveLength(known.body.recovery_token.length);
    expect(mailbox.textTo('nobody@example.test')).toMatch(/no account uses it/);
    for (const code of ['000000', '111111']) {
      expect((await problemOf(await post('/api/auth/recovery/verify', { code }, withToken(unknown.body.recovery_token)))).code).toBe('invalid_code');
    }
  });

  // ASVS V6.4.3, V7.4.3
  it('verifies without a session, then sets a new password and signs out every session', async () => {
    const userId = await signUpWithPassword(mailbox, 'grace@example.test', OLD);
    const oldBrowser = await signInWithPassword('grace@example.test', OLD);
    const { body } = await start('grace@example.test');
    const early = await post('/api/auth/recovery/password/complete', { password: NEW }, withToken(body.recovery_token));
    expect(early.status).toBe(403);
    const verified = await post('/api/auth/recovery/verify', { code: mailbox.codeFor('grace@example.test') }, withToken(body.recovery_token));
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ verified: true });
    expect(verified.headers.get('set-cookie')).toBeNull();

    const done = await post('/api/auth/recovery/password/complete', { password: NEW }, withToken(body.recovery_token));
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ user_id: userId });
    expect(mailbox.textTo('grace@example.test')).toMatch(/recovered with a new password/);
    expect((await get('/api/auth/session', { headers: { cookie: oldBrowser.cookie } })).status).toBe(401);
    expect((await post('/api/auth/signin/password', { email: 'grace@example.test', password: OLD })).status).toBe(401);
    await signInWithPassword('grace@example.test', NEW);

    const events = await (await getDb()).select().from(outboxEvents).where(eq(outboxEvents.userId, userId));
    expect(events.find((e) => e.type === 'identity.session.revoked')?.payload).toEqual({
      session_id: oldBrowser.sessionId,
      user_id: userId,
      reason: 'account_recovered',
    });
    // Single use.
    expect((await post('/api/auth/recovery/password/complete', { password: NEW }, withToken(body.recovery_token))).status).toBe(401);
  });

  // ASVS V6.6.3
  it('re-sends a replacement code, limited with 429', async () => {
    await signUpWithPassword(mailbox, 'linus@example.test', OLD);
    const { body } = await start('linus@example.test');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post('/api/auth/recovery/resend', {}, withToken(body.recovery_token))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await post('/api/auth/recovery/verify', { code: mailbox.codeFor('linus@example.test') }, withToken(body.recovery_token))).status).toBe(200);
  });
});
