/**
 * ASVS V6.2.2 / V6.2.3: a person can change their password, and changing one takes the current
 * password beside the new one (a recent step-up alone, even with a passkey, is not enough).
 */
import { describe, expect, it } from 'vitest';
import { as, get, post, signInWithPassword, signUpWithPassword, useMailbox, type Browser } from '@/tests/helpers/accounts';
import { ORIGIN, problemOf } from '@/tests/helpers/http';
import { SoftAuthenticator } from '@/tests/helpers/soft-authenticator';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50' });
const OLD = 'an old but decent password';
const NEW = 'a newer and better password';
const later = () => new Date(Date.now() + 11 * 60_000);

/** A step-up may hand out a new session cookie (rotation): the browser keeps whatever it was given. */
function keepCookie(browser: Browser, response: Response): Browser {
  const setCookie = response.headers.get('set-cookie');
  return setCookie ? { ...browser, cookie: setCookie.split(';')[0]! } : browser;
}

async function addPasskey(browser: Browser, authenticator: SoftAuthenticator) {
  const { options, challenge_id } = await (await post('/api/auth/passkeys/options', {}, { headers: as(browser) })).json();
  expect((await post('/api/auth/passkeys', { challenge_id, credential: authenticator.create(options) }, { headers: as(browser) })).status).toBe(201);
}

async function passkeyStepUp(browser: Browser, authenticator: SoftAuthenticator, now: () => Date): Promise<Browser> {
  const { options, challenge_id } = await (await post('/api/auth/step-up/passkey/options', {}, { headers: as(browser), now })).json();
  const done = await post('/api/auth/step-up/passkey/complete', { challenge_id, credential: authenticator.get(options) }, { headers: as(browser), now });
  expect(done.status).toBe(200);
  return keepCookie(browser, done);
}

const change = (browser: Browser, body: Record<string, string>, now?: () => Date) => post('/api/auth/password/change', body, { headers: as(browser), now });
const passwordSignIn = (email: string, password: string) => post('/api/auth/signin/password', { email, password });

describe('changing a password (ASVS V6.2.3)', () => {
  // ASVS V6.2.3
  it('takes the current password; without it or with a wrong one nothing changes', async () => {
    await signUpWithPassword(mailbox, 'rosalind@example.test', OLD);
    const browser = await signInWithPassword('rosalind@example.test', OLD);

    const missing = await change(browser, { new_password: NEW });
    expect(missing.status).toBe(400);
    expect(await problemOf(missing)).toMatchObject({ code: 'invalid_request', errors: [{ path: 'body.current_password' }] });

    const wrong = await change(browser, { current_password: 'not the password at all', new_password: NEW });
    expect(wrong.status).toBe(401);
    expect(await problemOf(wrong)).toMatchObject({ code: 'invalid_credentials', errors: [{ path: 'body.current_password' }] });
    expect((await passwordSignIn('rosalind@example.test', NEW)).status).toBe(401);

    const same = await change(browser, { current_password: OLD, new_password: OLD });
    expect(await problemOf(same)).toMatchObject({ code: 'weak_password', errors: [{ path: 'body.new_password' }] });

    const changed = await change(browser, { current_password: OLD, new_password: NEW });
    expect(changed.status).toBe(200);
    expect((await passwordSignIn('rosalind@example.test', OLD)).status).toBe(401);
    expect((await passwordSignIn('rosalind@example.test', NEW)).status).toBe(201);
  });

  // ASVS V6.2.3
  it('is not satisfied by a fresh passkey step-up alone when the account has a password', async () => {
    await signUpWithPassword(mailbox, 'lise@example.test', OLD);
    let browser = await signInWithPassword('lise@example.test', OLD);
    const authenticator = new SoftAuthenticator(ORIGIN);
    await addPasskey(browser, authenticator);
    browser = await passkeyStepUp(browser, authenticator, later);

    expect((await change(browser, { new_password: NEW }, later)).status).toBe(400);
    expect((await change(browser, { current_password: OLD, new_password: NEW }, later)).status).toBe(200);
  });

  // ASVS V6.3.1
  it('counts wrong current passwords towards the password lockout, so it is no guessing oracle', async () => {
    await signUpWithPassword(mailbox, 'chien-shiung@example.test', OLD);
    const browser = await signInWithPassword('chien-shiung@example.test', OLD);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await change(browser, { current_password: `wrong guess ${attempt}`, new_password: NEW })).status).toBe(401);
    }
    // Locked now: even the right current password is refused, and so is password sign-in.
    expect((await change(browser, { current_password: OLD, new_password: NEW })).status).toBe(401);
    expect((await passwordSignIn('chien-shiung@example.test', OLD)).status).toBe(401);
  });

  it('lets a passkey-only account set its first password behind the passkey step-up, with no current password', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { enrollment_token } = await (await post('/api/auth/enrollment/start', { email: 'emmy@example.test' })).json();
    const token = { headers: { 'x-enrollment-token': enrollment_token } };
    await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor('emmy@example.test') }, token);
    const enrolment = await (await post('/api/auth/enrollment/passkey/options', {}, token)).json();
    await post('/api/auth/enrollment/passkey/complete', { challenge_id: enrolment.challenge_id, credential: authenticator.create(enrolment.options) }, token);
    const signIn = await (await post('/api/auth/signin/passkey/options', {})).json();
    const signedIn = await post('/api/auth/signin/passkey/complete', { challenge_id: signIn.challenge_id, credential: authenticator.get(signIn.options) });
    const body = await signedIn.json();
    const browser: Browser = { cookie: signedIn.headers.get('set-cookie')!.split(';')[0]!, csrf: body.csrf_token, sessionId: body.session.id };

    expect(await (await get('/api/auth/password', { headers: { cookie: browser.cookie } })).json()).toEqual({ set: false, updated_at: null });
    const stale = await change(browser, { new_password: NEW }, later);
    expect(await problemOf(stale)).toMatchObject({ code: 'step_up_required', step_up: { methods: ['passkey'] } });
    const fresh = await passkeyStepUp(browser, authenticator, later);
    expect((await change(fresh, { new_password: NEW }, later)).status).toBe(200);
    expect(await (await get('/api/auth/password', { headers: { cookie: fresh.cookie } })).json()).toMatchObject({ set: true });
    expect((await passwordSignIn('emmy@example.test', NEW)).status).toBe(201);
  });
});
