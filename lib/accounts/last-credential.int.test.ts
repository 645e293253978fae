/**
 * The last-credential guard under concurrency: two removals of an account's two passkeys, racing,
 * must leave one (on real Postgres both requests run on their own connections at once).
 */
import { describe, expect, it } from 'vitest';
import { as, browserFrom, get, post, useMailbox, type Browser } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN } from '@/tests/helpers/http';
import { SoftAuthenticator } from '@/tests/helpers/soft-authenticator';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '20' });
type Ceremony = { options: Parameters<SoftAuthenticator['create']>[0] & Parameters<SoftAuthenticator['get']>[0]; challenge_id: string };

async function ceremony(response: Response): Promise<Ceremony> {
  expect(response.status).toBe(200);
  return (await response.json()) as Ceremony;
}

/** A passkey-only account holding two passkeys, signed in. */
async function accountWithTwoPasskeys(email: string): Promise<Browser> {
  const first = new SoftAuthenticator(ORIGIN);
  const { enrollment_token } = await (await post('/api/auth/enrollment/start', { email })).json();
  const token = { headers: { 'x-enrollment-token': enrollment_token } };
  await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor(email) }, token);
  const enroll = await ceremony(await post('/api/auth/enrollment/passkey/options', {}, token));
  expect(
    (await post('/api/auth/enrollment/passkey/complete', { challenge_id: enroll.challenge_id, credential: first.create(enroll.options) }, token)).status,
  ).toBe(201);
  const signIn = await ceremony(await post('/api/auth/signin/passkey/options', {}));
  const browser = await browserFrom(
    await post('/api/auth/signin/passkey/complete', { challenge_id: signIn.challenge_id, credential: first.get(signIn.options) }),
  );
  const add = await ceremony(await post('/api/auth/passkeys/options', {}, { headers: as(browser) }));
  const added = await post(
    '/api/auth/passkeys',
    { challenge_id: add.challenge_id, credential: new SoftAuthenticator(ORIGIN).create(add.options) },
    { headers: as(browser) },
  );
  expect(added.status).toBe(201);
  return browser;
}

const passkeysOf = async (browser: Browser) =>
  (await (await get('/api/auth/passkeys', { headers: { cookie: browser.cookie } })).json()).passkeys as { id: string }[];
const remove = (browser: Browser, passkeyId: string) =>
  call(operation('DELETE', '/api/auth/passkeys/{passkey_id}'), { params: { passkey_id: passkeyId }, headers: { origin: ORIGIN, ...as(browser) } });

describe('the last-credential guard', () => {
  it('keeps one passkey when both are removed at the same time', async () => {
    // Several rounds: without the account lock, the race is lost whenever both counts run before either delete commits.
    for (let round = 0; round < 5; round += 1) {
      const browser = await accountWithTwoPasskeys(`racer${round}@example.test`);
      const [a, b] = await passkeysOf(browser);
      const statuses = (await Promise.all([remove(browser, a!.id), remove(browser, b!.id)])).map((r) => r.status).sort();
      expect(statuses, `round ${round}`).toEqual([200, 409]);
      expect(await passkeysOf(browser), `round ${round}`).toHaveLength(1);
    }
  });
});
