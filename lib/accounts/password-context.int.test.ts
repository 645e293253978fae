/** Every way of setting a password refuses one built from the account's own e-mail address. */
import { describe, expect, it } from 'vitest';
import { as, post, signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';

const mailbox = useMailbox();
const GOOD = 'a perfectly decent passphrase';

async function expectRefused(response: Response, field = 'password') {
  expect(response.status).toBe(400);
  expect(await problemOf(response)).toMatchObject({ code: 'weak_password', errors: [{ path: `body.${field}` }] });
}

describe('context-specific words', () => {
  // ASVS V6.2.11
  it('are refused at enrollment', async () => {
    const { enrollment_token } = await (await post('/api/auth/enrollment/start', { email: 'ada.lovelace@example.test' })).json();
    const token = { headers: { 'x-enrollment-token': enrollment_token } };
    await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor('ada.lovelace@example.test') }, token);
    await expectRefused(await post('/api/auth/enrollment/password/complete', { password: 'ada.lovelace@example.test' }, token));
    await expectRefused(await post('/api/auth/enrollment/password/complete', { password: 'Lovelace1815!' }, token));
    expect((await post('/api/auth/enrollment/password/complete', { password: GOOD }, token)).status).toBe(201);
  });

  // ASVS V6.2.11
  it('are refused when changing the password and when recovering', async () => {
    await signUpWithPassword(mailbox, 'grace.hopper@example.test', GOOD);
    const browser = await signInWithPassword('grace.hopper@example.test', GOOD);
    await expectRefused(
      await post('/api/auth/password/change', { current_password: GOOD, new_password: 'grace.hopper2026' }, { headers: as(browser) }),
      'new_password',
    );

    const { recovery_token } = await (await post('/api/auth/recovery/start', { email: 'grace.hopper@example.test' })).json();
    const token = { headers: { 'x-recovery-token': recovery_token } };
    await post('/api/auth/recovery/verify', { code: mailbox.codeFor('grace.hopper@example.test') }, token);
    await expectRefused(await post('/api/auth/recovery/password/complete', { password: 'identityservice!' }, token));
  });
});
