/**
 * The guess budget of e-mail codes belongs to the address and the purpose for a fixed 15-minute
 * window (CODE_GUESS_BUDGET), not to a code: re-sending a code or starting again does not refill it.
 * Times are injected; the window runs from 10:00:00 to 10:15:00.
 */
import { describe, expect, it } from 'vitest';
import { post, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';

const mailbox = useMailbox();
const PASSWORD = 'a perfectly decent passphrase';
const at = (time: string) => () => new Date(`2031-03-03T${time}Z`);
const wrongFor = (code: string) => (code === '000000' ? '000001' : '000000');

async function expectRefused(response: Response, detail: RegExp) {
  expect(response.status).toBe(400);
  const problem = await problemOf(response);
  expect(problem.code).toBe('invalid_code');
  expect(problem.detail).toMatch(detail);
}

async function startSignIn(email: string, now: () => Date) {
  const started = await post('/api/auth/signin/email-otp/start', { email }, { now });
  expect(started.status).toBe(202);
  const { challenge_id } = (await started.json()) as { challenge_id: string };
  return { challenge_id, code: mailbox.codeFor(email) };
}

const completeSignIn = (body: { challenge_id: string; code: string }, now: () => Date) => post('/api/auth/signin/email-otp/complete', body, { now });

describe('the e-mail code guess budget', () => {
  it('is not refilled by a re-send: after five wrong codes the right re-sent code is refused until the window ends', async () => {
    await signUpWithPassword(mailbox, 'resender@example.test', PASSWORD);
    const started = await post('/api/auth/recovery/start', { email: 'resender@example.test' }, { now: at('10:01:00') });
    const token = { 'x-recovery-token': ((await started.json()) as { recovery_token: string }).recovery_token };
    const verify = (code: string, now: () => Date) => post('/api/auth/recovery/verify', { code }, { headers: token, now });
    const wrong = wrongFor(mailbox.codeFor('resender@example.test'));
    for (let i = 0; i < 5; i++) await expectRefused(await verify(wrong, at('10:02:00')), /wrong or has expired/);

    expect((await post('/api/auth/recovery/resend', {}, { headers: token, now: at('10:03:00') })).status).toBe(200);
    const resent = mailbox.codeFor('resender@example.test');
    await expectRefused(await verify(resent, at('10:04:00')), /Too many wrong codes/);
    await expectRefused(await verify(resent, at('10:12:59')), /Too many wrong codes/);

    // The next window: a fresh code (the last one expired at 10:13) verifies.
    expect((await post('/api/auth/recovery/resend', {}, { headers: token, now: at('10:15:00') })).status).toBe(200);
    expect((await verify(mailbox.codeFor('resender@example.test'), at('10:15:10'))).status).toBe(200);
  });

  it('is not refilled by a new start either: it belongs to the address and the purpose', async () => {
    await signUpWithPassword(mailbox, 'restarter@example.test', PASSWORD);
    await signUpWithPassword(mailbox, 'bystander@example.test', PASSWORD);
    const first = await startSignIn('restarter@example.test', at('10:01:00'));
    for (let i = 0; i < 5; i++) await expectRefused(await completeSignIn({ ...first, code: wrongFor(first.code) }, at('10:02:00')), /wrong or has expired/);

    const second = await startSignIn('restarter@example.test', at('10:03:00'));
    await expectRefused(await completeSignIn(second, at('10:04:00')), /Too many wrong codes/);
    // Another address, and another purpose of the same address, keep their own budgets.
    expect((await completeSignIn(await startSignIn('bystander@example.test', at('10:05:00')), at('10:05:10'))).status).toBe(201);
    const recovery = await post('/api/auth/recovery/start', { email: 'restarter@example.test' }, { now: at('10:06:00') });
    const recoveryToken = { 'x-recovery-token': ((await recovery.json()) as { recovery_token: string }).recovery_token };
    const recoveryCode = mailbox.codeFor('restarter@example.test');
    expect((await post('/api/auth/recovery/verify', { code: recoveryCode }, { headers: recoveryToken, now: at('10:06:10') })).status).toBe(200);

    const third = await startSignIn('restarter@example.test', at('10:15:00'));
    expect((await completeSignIn(third, at('10:15:10'))).status).toBe(201);
  });

  it('counts wrong codes only: a right code gives its guess back', async () => {
    await signUpWithPassword(mailbox, 'typist@example.test', PASSWORD);
    const first = await startSignIn('typist@example.test', at('10:01:00'));
    for (let i = 0; i < 4; i++) await expectRefused(await completeSignIn({ ...first, code: wrongFor(first.code) }, at('10:02:00')), /wrong or has expired/);
    expect((await completeSignIn(first, at('10:03:00'))).status).toBe(201);
    // Four wrong codes spent so far: one more attempt is left, and a right code may use it.
    const second = await startSignIn('typist@example.test', at('10:04:00'));
    expect((await completeSignIn(second, at('10:05:00'))).status).toBe(201);
  });
});
