/**
 * A password change, a completed recovery and a removed passkey end every live challenge of the
 * account: someone who held the mailbox for a moment (kept an e-mail sign-in code, verified a
 * recovery without completing it) loses both once the owner reacts.
 */
import { describe, expect, it } from 'vitest';
import { as, post, signInWithPassword, signUpWithPassword, useMailbox, verifiedRecovery, type Browser } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN, problemOf } from '@/tests/helpers/http';
import { SoftAuthenticator } from '@/tests/helpers/soft-authenticator';

const mailbox = useMailbox();
const OWNERS = 'the owner keeps this passphrase';
const OWNERS_NEXT = 'the owner moves on to this one';
const INTRUDERS = 'the intruder would set this one';

interface KeptProofs {
  signIn: { challenge_id: string; code: string };
  recovery: Record<string, string>;
}

/** The mailbox held for a moment: an e-mail sign-in started (code kept) and a recovery verified, not completed. */
async function keepProofs(email: string): Promise<KeptProofs> {
  const started = await post('/api/auth/signin/email-otp/start', { email });
  const { challenge_id } = (await started.json()) as { challenge_id: string };
  const code = mailbox.codeFor(email);
  return { signIn: { challenge_id, code }, recovery: await verifiedRecovery(mailbox, email) };
}

async function expectEnded(kept: KeptProofs) {
  const signIn = await post('/api/auth/signin/email-otp/complete', kept.signIn);
  expect(signIn.status).toBe(400);
  expect((await problemOf(signIn)).code).toBe('invalid_code');
  const recovered = await post('/api/auth/recovery/password/complete', { password: INTRUDERS }, { headers: kept.recovery });
  expect(recovered.status).toBe(401);
  expect((await problemOf(recovered)).code).toBe('unauthenticated');
}

async function owner(email: string): Promise<Browser> {
  await signUpWithPassword(mailbox, email, OWNERS);
  return signInWithPassword(email, OWNERS);
}

describe('ending live challenges', () => {
  it('a password change ends the kept sign-in code and the verified recovery', async () => {
    const browser = await owner('changer@example.test');
    const kept = await keepProofs('changer@example.test');
    const changed = await post('/api/auth/password/change', { current_password: OWNERS, new_password: OWNERS_NEXT }, { headers: as(browser) });
    expect(changed.status).toBe(200);
    await expectEnded(kept);
    await signInWithPassword('changer@example.test', OWNERS_NEXT);
  });

  it("the owner's own completed recovery ends the kept sign-in code and the other verified recovery", async () => {
    await owner('recoverer@example.test');
    const kept = await keepProofs('recoverer@example.test');
    const own = await verifiedRecovery(mailbox, 'recoverer@example.test');
    expect((await post('/api/auth/recovery/password/complete', { password: OWNERS_NEXT }, { headers: own })).status).toBe(200);
    await expectEnded(kept);
    await signInWithPassword('recoverer@example.test', OWNERS_NEXT);
  });

  it('removing a passkey ends the kept sign-in code and the verified recovery', async () => {
    const browser = await owner('remover@example.test');
    const { options, challenge_id } = await (await post('/api/auth/passkeys/options', {}, { headers: as(browser) })).json();
    const added = await post('/api/auth/passkeys', { challenge_id, credential: new SoftAuthenticator(ORIGIN).create(options) }, { headers: as(browser) });
    expect(added.status).toBe(201);
    const passkeyId = ((await added.json()) as { id: string }).id;
    const kept = await keepProofs('remover@example.test');
    const removed = await call(operation('DELETE', '/api/auth/passkeys/{passkey_id}'), {
      params: { passkey_id: passkeyId },
      headers: { origin: ORIGIN, ...as(browser) },
    });
    expect(removed.status).toBe(200);
    await expectEnded(kept);
  });
});
