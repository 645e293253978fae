/**
 * Where sessions begin and end: a new sign-in replaces the browser's session, revoking another
 * session needs a recent step-up, "sign out everywhere else", and the concurrent-session limit.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents, outboxEvents } from '@/lib/db/schema';
import { OPERATIONS } from '@/lib/http/registry';
import { as, browserFrom, get, post, signInWithPassword, signUpWithPassword, useMailbox, type Browser } from '@/tests/helpers/accounts';
import { ORIGIN, problemOf } from '@/tests/helpers/http';
import {
  approve,
  authorizationParams,
  authorize,
  CookieJar,
  decideAs,
  exchangeCode,
  interactionOf,
  pkce,
  registerNativeClient,
  resume,
} from '@/tests/helpers/oauth';
import { SoftAuthenticator } from '@/tests/helpers/soft-authenticator';
import { withEnv } from '@/tests/setup/state';
import { sessionViewSchema } from './sessions.contract';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '20' });
const PASSWORD = 'sessions begin and sessions end';

const alive = async (browser: Browser) => (await get('/api/auth/session', { headers: { cookie: browser.cookie } })).status === 200;

async function revocationReasons(userId: string): Promise<Record<string, string>> {
  const rows = await (
    await getDb()
  )
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.userId, userId), eq(outboxEvents.type, 'identity.session.revoked')));
  return Object.fromEntries(rows.map((row) => [(row.payload as { session_id: string }).session_id, (row.payload as { reason: string }).reason]));
}

/** An e-mail code sign-in: a session without a step-up window. */
async function signInWithEmailCode(email: string, cookie?: string): Promise<Response> {
  const { challenge_id } = await (await post('/api/auth/signin/email-otp/start', { email })).json();
  return post('/api/auth/signin/email-otp/complete', { challenge_id, code: mailbox.codeFor(email) }, { headers: cookie ? { cookie } : {} });
}

describe('a new sign-in', () => {
  it('is declared as such by every operation that answers with a new session', () => {
    const issuing = OPERATIONS.filter((op) => op.kind === 'resource' && op.response === sessionViewSchema && op.method === 'POST').map((op) => op.id);
    const declared = OPERATIONS.filter((op) => op.startsSession).map((op) => op.id);
    expect(issuing.sort()).toEqual(['completeEmailCodeSignIn', 'signInWithPasskey', 'signInWithPassword']);
    // Federated sign-ins start a session too, answering with a redirect to the sign-in page instead of
    // the session (their event scenarios show the presented session ending).
    const redirecting = ['completeOidcFederation', 'completeSamlFederation'];
    expect(declared.sort()).toEqual([...issuing, ...redirecting].sort());
  });

  // ASVS V7.2.4: every sign-in ends the session the browser presented, through the revocation path.
  it('ends the session the browser held, for every sign-in method, announced like every revocation', async () => {
    const userId = await signUpWithPassword(mailbox, 'ada@example.test', PASSWORD);
    const first = await signInWithPassword('ada@example.test', PASSWORD);
    const second = await signInWithPassword('ada@example.test', PASSWORD, { headers: { cookie: first.cookie } });
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(await alive(first)).toBe(false);
    expect(await alive(second)).toBe(true);

    const third = await browserFrom(await signInWithEmailCode('ada@example.test', second.cookie));
    expect(await alive(second)).toBe(false);

    // A passkey sign-in, with a passkey added from the signed-in session.
    const authenticator = new SoftAuthenticator(ORIGIN);
    const withPassword = await signInWithPassword('ada@example.test', PASSWORD);
    const options = await (await post('/api/auth/passkeys/options', {}, { headers: as(withPassword) })).json();
    expect(
      (
        await post(
          '/api/auth/passkeys',
          { challenge_id: options.challenge_id, credential: authenticator.create(options.options) },
          { headers: as(withPassword) },
        )
      ).status,
    ).toBe(201);
    const signInOptions = await (await post('/api/auth/signin/passkey/options', {})).json();
    const fourth = await post(
      '/api/auth/signin/passkey/complete',
      { challenge_id: signInOptions.challenge_id, credential: authenticator.get(signInOptions.options) },
      { headers: { cookie: third.cookie } },
    );
    expect(fourth.status).toBe(201);
    expect(await alive(third)).toBe(false);

    const reasons = await revocationReasons(userId);
    expect([reasons[first.sessionId], reasons[second.sessionId], reasons[third.sessionId]]).toEqual(['signed_in_again', 'signed_in_again', 'signed_in_again']);
    const audit = await (
      await getDb()
    )
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'session.revoked'), eq(auditEvents.subjectId, first.sessionId)));
    expect(audit).toHaveLength(1);
  });

  // ASVS V7.2.4
  it("ends someone else's session in that browser too, and a failed sign-in ends nothing", async () => {
    const aliceId = await signUpWithPassword(mailbox, 'alice@example.test', PASSWORD);
    await signUpWithPassword(mailbox, 'bob@example.test', PASSWORD);
    const alice = await signInWithPassword('alice@example.test', PASSWORD);
    const failed = await post('/api/auth/signin/password', { email: 'bob@example.test', password: 'not the password' }, { headers: { cookie: alice.cookie } });
    expect(failed.status).toBe(401);
    expect(await alive(alice)).toBe(true);
    const bob = await signInWithPassword('bob@example.test', PASSWORD, { headers: { cookie: alice.cookie } });
    expect(await alive(alice)).toBe(false);
    expect(await alive(bob)).toBe(true);
    expect((await revocationReasons(aliceId))[alice.sessionId]).toBe('signed_in_again');
  });
});

describe('a new sign-in and an OAuth authorization that asked for it', () => {
  // ASVS V7.2.4 with OIDC prompt=login: the old session ends, the authorization request still finishes.
  it('lets a prompt=login request finish in the same browser after the sign-in ended the old session', async () => {
    await signUpWithPassword(mailbox, 'ida@example.test', PASSWORD);
    const browser = await signInWithPassword('ida@example.test', PASSWORD);
    const clientId = await registerNativeClient();
    const jar = new CookieJar(browser);
    // A first authorization gives the browser a provider session, which the next request is bound to.
    await approve(jar, browser, authorizationParams(clientId, pkce().challenge, { scope: 'openid' }));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const { verifier, challenge } = pkce();
    const interactionId = interactionOf(await authorize(jar, authorizationParams(clientId, challenge, { scope: 'openid', prompt: 'login' })));

    const fresh = await signInWithPassword('ida@example.test', PASSWORD, { headers: { cookie: jar.header() } });
    expect(await alive(browser)).toBe(false);
    const decided = await decideAs(fresh, interactionId);
    expect(decided.status).toBe(200);
    jar.set(fresh.cookie);
    const callback = await resume(jar, (await decided.json()).redirect_to);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect((await exchangeCode(clientId, callback, verifier)).status).toBe(200);
  });

  it("ends another person's provider session with theirs, and the new person's authorization still finishes", async () => {
    await signUpWithPassword(mailbox, 'joan@example.test', PASSWORD);
    await signUpWithPassword(mailbox, 'kurt@example.test', PASSWORD);
    const joan = await signInWithPassword('joan@example.test', PASSWORD);
    const clientId = await registerNativeClient();
    const jar = new CookieJar(joan);
    await approve(jar, joan, authorizationParams(clientId, pkce().challenge, { scope: 'openid' }));
    const kurt = await signInWithPassword('kurt@example.test', PASSWORD, { headers: { cookie: jar.header() } });
    expect(await alive(joan)).toBe(false);
    jar.set(kurt.cookie);
    const { verifier, challenge } = pkce();
    const callback = await approve(jar, kurt, authorizationParams(clientId, challenge, { scope: 'openid' }));
    expect((await exchangeCode(clientId, callback, verifier)).status).toBe(200);
  });
});

describe('revoking another session', () => {
  // ASVS V7.5.2: ending other sessions needs a recent re-authentication; signing out never does.
  it('needs a recent step-up, named like every step_up_required; signing out stays free', async () => {
    await signUpWithPassword(mailbox, 'grace@example.test', PASSWORD);
    const other = await signInWithPassword('grace@example.test', PASSWORD);
    let browser = await browserFrom(await signInWithEmailCode('grace@example.test'));

    const refused = await post('/api/auth/sessions/revoke', { session_id: other.sessionId }, { headers: as(browser) });
    expect(refused.status).toBe(403);
    const problem = await problemOf(refused);
    expect(problem.code).toBe('step_up_required');
    expect(problem.step_up).toEqual({ methods: ['password'], max_age_seconds: 600 });
    expect(await alive(other)).toBe(true);

    const stepUp = await post('/api/auth/step-up/password', { password: PASSWORD }, { headers: as(browser) });
    expect(stepUp.status).toBe(200);
    browser = { ...browser, cookie: stepUp.headers.get('set-cookie')!.split(';')[0]! };
    expect((await post('/api/auth/sessions/revoke', { session_id: other.sessionId }, { headers: as(browser) })).status).toBe(200);
    expect(await alive(other)).toBe(false);

    const otpOnly = await browserFrom(await signInWithEmailCode('grace@example.test'));
    const signOut = await post('/api/auth/sessions/revoke', { session_id: otpOnly.sessionId }, { headers: as(otpOnly) });
    expect(signOut.status).toBe(200);
    expect(await alive(otpOnly)).toBe(false);
  });

  it('expires the step-up after its window', async () => {
    await signUpWithPassword(mailbox, 'hopper@example.test', PASSWORD);
    const browser = await signInWithPassword('hopper@example.test', PASSWORD);
    const other = await signInWithPassword('hopper@example.test', PASSWORD);
    const later = () => new Date(Date.now() + 11 * 60_000);
    const stale = await post('/api/auth/sessions/revoke', { session_id: other.sessionId }, { headers: as(browser), now: later });
    expect((await problemOf(stale)).code).toBe('step_up_required');
  });
});

describe('sign out everywhere else', () => {
  // ASVS V7.5.2: terminate all other sessions at once, after re-authenticating.
  it('revokes every other session of yours after a step-up, keeps this one and announces each', async () => {
    const userId = await signUpWithPassword(mailbox, 'linus@example.test', PASSWORD);
    await signUpWithPassword(mailbox, 'stranger@example.test', PASSWORD);
    const stranger = await signInWithPassword('stranger@example.test', PASSWORD);
    const laptop = await signInWithPassword('linus@example.test', PASSWORD);
    const phone = await signInWithPassword('linus@example.test', PASSWORD);
    const browser = await browserFrom(await signInWithEmailCode('linus@example.test'));

    const refused = await post('/api/auth/sessions/revoke-others', {}, { headers: as(browser) });
    expect((await problemOf(refused)).code).toBe('step_up_required');
    const noCsrf = await post('/api/auth/sessions/revoke-others', {}, { headers: { cookie: laptop.cookie } });
    expect((await problemOf(noCsrf)).code).toBe('csrf_failed');
    expect(await alive(phone)).toBe(true);

    const response = await post('/api/auth/sessions/revoke-others', {}, { headers: as(laptop) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ revoked: 2 });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await alive(laptop)).toBe(true);
    expect([await alive(phone), await alive(browser)]).toEqual([false, false]);
    expect(await alive(stranger)).toBe(true);
    const reasons = await revocationReasons(userId);
    expect([reasons[phone.sessionId], reasons[browser.sessionId]]).toEqual(['signed_out_elsewhere', 'signed_out_elsewhere']);

    const again = await post('/api/auth/sessions/revoke-others', {}, { headers: as(laptop) });
    expect(await again.json()).toEqual({ revoked: 0 });
  });
});

describe('the concurrent-session limit', () => {
  // At the limit a new sign-in succeeds and the least recently used session ends (as docs/security.md documents).
  it('ends the least recently used session when a sign-in goes beyond SESSIONS_PER_ACCOUNT', async () => {
    const restore = withEnv({ SESSIONS_PER_ACCOUNT: '3' });
    try {
      const userId = await signUpWithPassword(mailbox, 'katherine@example.test', PASSWORD);
      const minutesLater = (minutes: number) => () => new Date(Date.now() + minutes * 60_000);
      const oldest = await signInWithPassword('katherine@example.test', PASSWORD);
      const middle = await signInWithPassword('katherine@example.test', PASSWORD);
      const newest = await signInWithPassword('katherine@example.test', PASSWORD);
      // The oldest sign-in is used later than the others: "least recently used" is the middle one.
      expect((await get('/api/auth/session', { headers: { cookie: oldest.cookie }, now: minutesLater(5) })).status).toBe(200);
      const fourth = await signInWithPassword('katherine@example.test', PASSWORD, { now: minutesLater(6) });
      const stillAlive = async (browser: Browser) =>
        (await get('/api/auth/session', { headers: { cookie: browser.cookie }, now: minutesLater(7) })).status === 200;
      expect([await stillAlive(oldest), await stillAlive(middle), await stillAlive(newest), await stillAlive(fourth)]).toEqual([true, false, true, true]);
      expect((await revocationReasons(userId))[middle.sessionId]).toBe('session_limit');
      const { sessions } = await (await get('/api/auth/sessions', { headers: { cookie: fourth.cookie }, now: minutesLater(7) })).json();
      expect(sessions).toHaveLength(3);
    } finally {
      restore();
    }
  });
});
