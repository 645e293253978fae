/**
 * What a registration may store and what a sign-in must match, probed with hand-built WebAuthn
 * responses: credential ids within WebAuthn's 1,023 bytes and the same at registration and sign-in,
 * bounded transports and public keys, one passkey per credential id under concurrency, and the
 * assertion's user handle (WebAuthn §7.2 step 6).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { as, browserFrom, passkeyOptions, post, useMailbox, verifiedEnrollment } from '@/tests/helpers/accounts';
import { ORIGIN, problemOf } from '@/tests/helpers/http';
import { SoftAuthenticator, type CredentialShape } from '@/tests/helpers/soft-authenticator';
import { listUserPasskeys } from './passkeys.repo';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '20' });

/** Completes a passkey enrollment of `token` with a registration shaped by `shape`. */
async function enroll(token: Record<string, string>, authenticator: SoftAuthenticator, shape: CredentialShape = {}) {
  const { options, challenge_id } = await passkeyOptions('/api/auth/enrollment/passkey/options', token);
  return post('/api/auth/enrollment/passkey/complete', { challenge_id, credential: authenticator.create(options, {}, shape) }, { headers: token });
}

async function expectRefused(response: Response) {
  expect(response.status).toBe(400);
  expect((await problemOf(response)).code).toBe('invalid_request');
}

async function passkeySignIn(authenticator: SoftAuthenticator, flags: Parameters<SoftAuthenticator['get']>[1] = {}) {
  const { options, challenge_id } = await (await post('/api/auth/signin/passkey/options', {})).json();
  return post('/api/auth/signin/passkey/complete', { challenge_id, credential: authenticator.get(options, flags) });
}

async function userOf(response: Response): Promise<string> {
  expect(response.status).toBe(201);
  return ((await response.json()) as { user_id: string }).user_id;
}

describe('passkey registration bounds', () => {
  it('refuses a credential id longer than WebAuthn allows, or other than the one reported, and stores nothing', async () => {
    const token = await verifiedEnrollment(mailbox, 'long-id@example.test');
    const authenticator = new SoftAuthenticator(ORIGIN);
    // The authenticator data names a 2,100-byte id while the JSON reports a short one.
    await expectRefused(await enroll(token, authenticator, { id: randomBytes(2100), reportedId: randomBytes(16).toString('base64url') }));
    await expectRefused(await enroll(token, authenticator, { id: randomBytes(1024) }));
    await expectRefused(await enroll(token, authenticator, { id: randomBytes(32), reportedId: randomBytes(32).toString('base64url') }));
    // Nothing was created: the same enrollment still completes with an honest passkey.
    const userId = await userOf(await enroll(token, authenticator));
    expect(await listUserPasskeys(await getDb(), userId)).toHaveLength(1);
  });

  it('registers a credential id of the full 1,023 bytes, and it signs in', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const userId = await userOf(await enroll(await verifiedEnrollment(mailbox, 'max-id@example.test'), authenticator, { id: randomBytes(1023) }));
    const signedIn = await passkeySignIn(authenticator);
    expect(signedIn.status).toBe(201);
    expect(((await signedIn.json()) as { user: { id: string } }).user.id).toBe(userId);
  });

  it('gives 409 to the loser when two enrollments register one new credential id at once', async () => {
    // Several rounds: the race is lost whenever both check for the id before either inserts it.
    for (let round = 0; round < 4; round += 1) {
      const id = randomBytes(16);
      const tokens = await Promise.all([
        verifiedEnrollment(mailbox, `racer-a${round}@example.test`),
        verifiedEnrollment(mailbox, `racer-b${round}@example.test`),
      ]);
      const answers = await Promise.all(tokens.map((token) => enroll(token, new SoftAuthenticator(ORIGIN), { id })));
      expect(answers.map((a) => a.status).sort(), `round ${round}`).toEqual([201, 409]);
    }
  });

  it('stores only the known transports, each once, and refuses transports that are not a short list of names', async () => {
    const token = await verifiedEnrollment(mailbox, 'transports@example.test');
    const authenticator = new SoftAuthenticator(ORIGIN);
    await expectRefused(await enroll(token, authenticator, { transports: 'u'.repeat(20_000) }));
    await expectRefused(await enroll(token, authenticator, { transports: Array.from({ length: 50 }, () => 'usb') }));
    const userId = await userOf(await enroll(token, authenticator, { transports: ['usb', 'warp-drive', 'usb', 'internal'] }));
    expect((await listUserPasskeys(await getDb(), userId)).map((p) => p.transports)).toEqual([['usb', 'internal']]);
  });

  it('refuses a public key padded beyond any key it accepts, and stores nothing', async () => {
    const token = await verifiedEnrollment(mailbox, 'padded-key@example.test');
    const authenticator = new SoftAuthenticator(ORIGIN);
    await expectRefused(await enroll(token, authenticator, { publicKeyPadding: 40_000 }));
    const userId = await userOf(await enroll(token, authenticator));
    const [stored] = await listUserPasskeys(await getDb(), userId);
    expect(Buffer.from(stored!.publicKey, 'base64url').length).toBeLessThan(200);
  });
});

describe('the user handle of an assertion (WebAuthn §7.2 step 6)', () => {
  it("signs in only when the handle is the passkey owner's; a step-up may leave it out but never name someone else", async () => {
    const mine = new SoftAuthenticator(ORIGIN);
    await userOf(await enroll(await verifiedEnrollment(mailbox, 'handle-owner@example.test'), mine));
    const theirs = new SoftAuthenticator(ORIGIN);
    await userOf(await enroll(await verifiedEnrollment(mailbox, 'handle-other@example.test'), theirs));
    const otherHandle = theirs.credentials[0]!.userHandle;

    for (const userHandle of [otherHandle, null]) {
      const refused = await passkeySignIn(mine, { userHandle });
      expect(refused.status, String(userHandle)).toBe(401);
      expect((await problemOf(refused)).code).toBe('invalid_credentials');
    }
    const browser = await browserFrom(await passkeySignIn(mine));

    const stepUp = async (userHandle: string | null) => {
      const { options, challenge_id } = await (await post('/api/auth/step-up/passkey/options', {}, { headers: as(browser) })).json();
      return post('/api/auth/step-up/passkey/complete', { challenge_id, credential: mine.get(options, { userHandle }) }, { headers: as(browser) });
    };
    expect((await stepUp(otherHandle)).status).toBe(401);
    expect((await stepUp(null)).status).toBe(200);
  });
});
