import { describe, expect, it } from 'vitest';
import {
  as,
  browserFrom,
  cookieFrom,
  get,
  post,
  signInWithPassword,
  signUpWithPassword,
  useMailbox,
  type Browser,
  type Mailbox,
} from '@/tests/helpers/accounts';
import { call, operation, ORIGIN, problemOf } from '@/tests/helpers/http';
import { SoftAuthenticator } from '@/tests/helpers/soft-authenticator';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '5' });
type Options = { options: { challenge: string; rp: { id: string }; user: { id: string }; allowCredentials?: { id: string }[] }; challenge_id: string };

async function optionsFrom(response: Response): Promise<Options> {
  expect(response.status).toBe(200);
  return (await response.json()) as Options;
}

async function signUpWithPasskey(box: Mailbox, email: string, authenticator: SoftAuthenticator): Promise<string> {
  const { enrollment_token } = await (await post('/api/auth/enrollment/start', { email })).json();
  const token = { headers: { 'x-enrollment-token': enrollment_token } };
  expect((await post('/api/auth/enrollment/passkey/options', {}, token)).status).toBe(403);
  await post('/api/auth/enrollment/verify-email', { code: box.codeFor(email) }, token);
  const { options, challenge_id } = await optionsFrom(await post('/api/auth/enrollment/passkey/options', {}, token));
  expect(options.rp.id).toBe('localhost');
  const created = await post('/api/auth/enrollment/passkey/complete', { challenge_id, credential: authenticator.create(options), display_name: 'Ada' }, token);
  expect(created.status).toBe(201);
  expect(created.headers.get('set-cookie')).toBeNull();
  return ((await created.json()) as { user_id: string }).user_id;
}

async function passkeySignIn(authenticator: SoftAuthenticator, flags: Parameters<SoftAuthenticator['get']>[1] = {}) {
  const { options, challenge_id } = await optionsFrom(await post('/api/auth/signin/passkey/options', {}));
  return post('/api/auth/signin/passkey/complete', { challenge_id, credential: authenticator.get(options, flags) });
}

async function stepUpWithPasskey(browser: Browser, authenticator: SoftAuthenticator) {
  const { options, challenge_id } = await optionsFrom(await post('/api/auth/step-up/passkey/options', {}, { headers: as(browser) }));
  return post('/api/auth/step-up/passkey/complete', { challenge_id, credential: authenticator.get(options) }, { headers: as(browser) });
}

describe('passkeys', () => {
  // A passkey sign-in (amr hwk, user verification required) counts as a passkey step-up.
  it('enrolls with a passkey and signs in usernameless, with a fresh step-up', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const userId = await signUpWithPasskey(mailbox, 'ada@example.test', authenticator);
    const { options } = await optionsFrom(await post('/api/auth/signin/passkey/options', {}));
    expect(options.allowCredentials).toEqual([]);
    const signedIn = await passkeySignIn(authenticator);
    expect(signedIn.status).toBe(201);
    const body = await signedIn.clone().json();
    expect(body.user).toMatchObject({ id: userId, email: 'ada@example.test', display_name: 'Ada' });
    expect(body.session).toMatchObject({ amr: ['hwk'], step_up_method: 'passkey' });
    expect(signedIn.headers.get('set-cookie')).toMatch(/^session=/);
  });

  it('rejects a bogus signature, a missing user verification or presence, a foreign origin and an unknown passkey', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    await signUpWithPasskey(mailbox, 'grace@example.test', authenticator);
    for (const flags of [{ corruptSignature: true }, { userVerified: false }, { userPresent: false }, { origin: 'https://evil.test' }]) {
      const response = await passkeySignIn(authenticator, flags);
      expect(response.status, JSON.stringify(flags)).toBe(401);
      expect((await problemOf(response)).code).toBe('invalid_credentials');
    }
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'someone' } });
    expect((await passkeySignIn(stranger)).status).toBe(401);
    expect((await passkeySignIn(authenticator)).status).toBe(201);
  });

  // A WebAuthn challenge is single use: a replayed assertion is refused.
  it('uses each challenge once', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    await signUpWithPasskey(mailbox, 'linus@example.test', authenticator);
    const { options, challenge_id } = await optionsFrom(await post('/api/auth/signin/passkey/options', {}));
    const credential = authenticator.get(options);
    expect((await post('/api/auth/signin/passkey/complete', { challenge_id, credential })).status).toBe(201);
    const replay = await post('/api/auth/signin/passkey/complete', { challenge_id, credential: authenticator.get(options) });
    expect(replay.status).toBe(400);
  });

  // ASVS V7.2.4
  it('steps up with one of your own passkeys only', async () => {
    const mine = new SoftAuthenticator(ORIGIN);
    await signUpWithPasskey(mailbox, 'hedy@example.test', mine);
    const theirs = new SoftAuthenticator(ORIGIN);
    await signUpWithPasskey(mailbox, 'eve@example.test', theirs);
    const browser = await browserFrom(await passkeySignIn(mine));
    const { options, challenge_id } = await optionsFrom(await post('/api/auth/step-up/passkey/options', {}, { headers: as(browser) }));
    expect(options.allowCredentials).toHaveLength(1);
    const foreign = await post('/api/auth/step-up/passkey/complete', { challenge_id, credential: theirs.get(options) }, { headers: as(browser) });
    expect(foreign.status).toBe(401);
    const ok = await stepUpWithPasskey(browser, mine);
    expect(ok.status).toBe(200);
    expect((await ok.json()).step_up_method).toBe('passkey');
    // ASVS V7.2.4: a passkey step-up renews the session's secret too; the old cookie is dead.
    expect((await get('/api/auth/session', { headers: { cookie: browser.cookie } })).status).toBe(401);
    const renewed = await get('/api/auth/session', { headers: { cookie: cookieFrom(ok) } });
    expect((await renewed.json()).session).toMatchObject({ id: browser.sessionId, step_up_method: 'passkey' });
  });

  // ASVS V6.4.4
  it('recovers an account with a replacement passkey: every session ends, old credentials stay, the owner is told', async () => {
    const lost = new SoftAuthenticator(ORIGIN);
    const userId = await signUpWithPasskey(mailbox, 'katherine@example.test', lost);
    const oldBrowser = await browserFrom(await passkeySignIn(lost));
    const { recovery_token } = await (await post('/api/auth/recovery/start', { email: 'katherine@example.test' })).json();
    const token = { headers: { 'x-recovery-token': recovery_token } };
    expect((await post('/api/auth/recovery/passkey/options', {}, token)).status).toBe(403);
    const verified = await post('/api/auth/recovery/verify', { code: mailbox.codeFor('katherine@example.test') }, token);
    expect(verified.headers.get('set-cookie')).toBeNull();
    const replacement = new SoftAuthenticator(ORIGIN);
    const { options, challenge_id } = await optionsFrom(await post('/api/auth/recovery/passkey/options', {}, token));
    const done = await post('/api/auth/recovery/passkey/complete', { challenge_id, credential: replacement.create(options) }, token);
    expect(done.status).toBe(201);
    expect(await done.json()).toEqual({ user_id: userId });
    expect(done.headers.get('set-cookie')).toBeNull();
    expect((await get('/api/auth/session', { headers: { cookie: oldBrowser.cookie } })).status).toBe(401);
    expect(mailbox.textTo('katherine@example.test')).toMatch(/recovered with a new passkey/);
    expect(((await (await passkeySignIn(replacement)).json()) as { user: { id: string } }).user.id).toBe(userId);
    expect((await passkeySignIn(lost)).status).toBe(201);
  });
});

describe('managing your own passkeys and password', () => {
  // ASVS V7.5.1
  it('lists, adds (with step-up), renames and removes passkeys, never the last credential', async () => {
    const first = new SoftAuthenticator(ORIGIN);
    await signUpWithPasskey(mailbox, 'margaret@example.test', first);
    const browser = await browserFrom(await passkeySignIn(first));
    const list = async () =>
      (await (await get('/api/auth/passkeys', { headers: { cookie: browser.cookie } })).json()).passkeys as { id: string; name: string }[];
    const [only] = await list();
    const lastOne = await call(operation('DELETE', '/api/auth/passkeys/{passkey_id}'), {
      params: { passkey_id: only!.id },
      headers: { origin: ORIGIN, ...as(browser) },
    });
    expect((await problemOf(lastOne)).code).toBe('conflict');
    // Once the step-up is old, a passkey-only account is asked for a passkey, never a password.
    const stale = await post('/api/auth/passkeys/options', {}, { headers: as(browser), now: () => new Date(Date.now() + 11 * 60_000) });
    expect(await problemOf(stale)).toMatchObject({ code: 'step_up_required', step_up: { methods: ['passkey'] } });

    const second = new SoftAuthenticator(ORIGIN);
    const { options, challenge_id } = await optionsFrom(await post('/api/auth/passkeys/options', {}, { headers: as(browser) }));
    const added = await post('/api/auth/passkeys', { challenge_id, credential: second.create(options), name: 'Work laptop' }, { headers: as(browser) });
    expect(added.status).toBe(201);
    const addedBody = await added.json();
    expect(addedBody.name).toBe('Work laptop');

    const renamed = await call(operation('PATCH', '/api/auth/passkeys/{passkey_id}'), {
      params: { passkey_id: addedBody.id },
      body: { name: 'Desk' },
      headers: { origin: ORIGIN, ...as(browser) },
    });
    expect((await renamed.json()).name).toBe('Desk');
    const removed = await call(operation('DELETE', '/api/auth/passkeys/{passkey_id}'), {
      params: { passkey_id: only!.id },
      headers: { origin: ORIGIN, ...as(browser) },
    });
    expect(removed.status).toBe(200);
    expect((await list()).map((p) => p.name)).toEqual(['Desk']);
    expect((await passkeySignIn(second)).status).toBe(201);
  });

  // ASVS V6.2.2, V7.4.3, V7.5.1
  it('requires a recent step-up for sensitive account changes', async () => {
    await signUpWithPassword(mailbox, 'barbara@example.test', 'an old but decent password');
    const browser = await signInWithPassword('barbara@example.test', 'an old but decent password');
    const later = () => new Date(Date.now() + 11 * 60_000);
    const stale = await post(
      '/api/auth/password/change',
      { current_password: 'an old but decent password', new_password: 'a newer and better password' },
      { headers: as(browser), now: later },
    );
    expect(stale.status).toBe(403);
    // A password-only account is offered the password, never a passkey it does not have.
    expect(await problemOf(stale)).toMatchObject({ code: 'step_up_required', step_up: { methods: ['password'], max_age_seconds: 600 } });
    const other = await signInWithPassword('barbara@example.test', 'an old but decent password');
    const changed = await post(
      '/api/auth/password/change',
      { current_password: 'an old but decent password', new_password: 'a newer and better password' },
      { headers: as(browser) },
    );
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ changed: true, other_sessions_signed_out: 1 });
    expect((await get('/api/auth/session', { headers: { cookie: other.cookie } })).status).toBe(401);
    expect((await get('/api/auth/session', { headers: { cookie: browser.cookie } })).status).toBe(200);
    await signInWithPassword('barbara@example.test', 'a newer and better password');
  });
});

describe('passkey names and the ceremony clock', () => {
  const ICLOUD_KEYCHAIN = 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd';
  const LINUX_CHROME = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36' };
  // A day in the past: enrollment tokens and challenges issued on the wall clock are still live then.
  const JAN_5 = () => new Date('2026-01-05T12:00:00Z');

  async function enrollOn(email: string, authenticator: SoftAuthenticator) {
    const { enrollment_token } = await (await post('/api/auth/enrollment/start', { email })).json();
    const headers = { 'x-enrollment-token': enrollment_token, ...LINUX_CHROME };
    await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor(email) }, { headers });
    const { options, challenge_id } = await optionsFrom(await post('/api/auth/enrollment/passkey/options', {}, { headers, now: JAN_5 }));
    const created = await post('/api/auth/enrollment/passkey/complete', { challenge_id, credential: authenticator.create(options) }, { headers, now: JAN_5 });
    expect(created.status).toBe(201);
    const browser = await browserFrom(await passkeySignIn(authenticator));
    return (await (await get('/api/auth/passkeys', { headers: { cookie: browser.cookie } })).json()).passkeys as { name: string }[];
  }

  it('names a new passkey after its authenticator model (from the AAGUID) and the day it was added', async () => {
    const [passkey] = await enrollOn('joan@example.test', new SoftAuthenticator(ORIGIN, ICLOUD_KEYCHAIN));
    expect(passkey!.name).toBe('iCloud Keychain · 5 Jan 2026');
  });

  it('falls back to the device for an unknown or all-zero AAGUID (as Chromium’s virtual authenticator sends)', async () => {
    const [zero] = await enrollOn('mary@example.test', new SoftAuthenticator(ORIGIN));
    expect(zero!.name).toBe('Chrome on Linux · 5 Jan 2026');
    const [unknown] = await enrollOn('ida@example.test', new SoftAuthenticator(ORIGIN, '01234567-89ab-cdef-0123-456789abcdef'));
    expect(unknown!.name).toBe('Chrome on Linux · 5 Jan 2026');
  });

  // ASVS V6.5.5
  it('times challenges with the injected clock, not the wall clock', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    await signUpWithPasskey(mailbox, 'sophie@example.test', authenticator);
    const inTwoHours = Date.now() + 2 * 3600_000;
    const at = (offsetMs: number) => () => new Date(inTwoHours + offsetMs);
    const first = await optionsFrom(await post('/api/auth/signin/passkey/options', {}, { now: at(0) }));
    const inTime = await post(
      '/api/auth/signin/passkey/complete',
      { challenge_id: first.challenge_id, credential: authenticator.get(first.options) },
      { now: at(60_000) },
    );
    expect(inTime.status).toBe(201);
    const second = await optionsFrom(await post('/api/auth/signin/passkey/options', {}, { now: at(0) }));
    const late = await post(
      '/api/auth/signin/passkey/complete',
      { challenge_id: second.challenge_id, credential: authenticator.get(second.options) },
      { now: at(6 * 60_000) },
    );
    expect((await problemOf(late)).code).toBe('invalid_request');
  });
});
