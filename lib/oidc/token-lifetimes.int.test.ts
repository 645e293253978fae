/**
 * Lifetimes the provider must keep whatever the client does: an authorization code dies after its
 * 60 s, and a refresh-token chain ends at the grant's absolute lifetime however often it rotates.
 * Time moves with a faked Date (the provider and the storage adapter both read it).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getConfig } from '@/lib/config';
import { signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { approve, authorizationParams, CookieJar, exchangeCode, pkce, registerNativeClient, tokenRequest } from '@/tests/helpers/oauth';
import { getProvider } from './provider';

const mailbox = useMailbox();
const PASSWORD = 'a long and unusual passphrase';
let people = 0;

afterEach(() => {
  vi.useRealTimers();
});

/** A signed-in person approves a request: the client, the PKCE verifier and the callback with the code. */
async function approvedCode(extra: Record<string, string>) {
  const email = `lifetimes-${(people += 1)}@example.test`;
  await signUpWithPassword(mailbox, email, PASSWORD);
  const browser = await signInWithPassword(email, PASSWORD);
  const clientId = await registerNativeClient();
  const { verifier, challenge } = pkce();
  const callback = await approve(new CookieJar(browser), browser, authorizationParams(clientId, challenge, extra));
  return { clientId, verifier, callback };
}

/** From now on Date reads `seconds` later than the real clock (timers stay real). */
function travel(seconds: number) {
  vi.useRealTimers();
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + seconds * 1000 });
}

describe('authorization codes', () => {
  // ASVS V10.4.3 (authorization codes are short-lived: 60 s here, the Decisions table)
  it('are refused with invalid_grant when used after their 60 s lifetime', async () => {
    expect(getConfig().ttl.authorizationCode).toBe(60);
    const { clientId, verifier, callback } = await approvedCode({ scope: 'openid' });
    travel(61);
    const response = await exchangeCode(clientId, callback, verifier);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_grant');
  });

  // ASVS V10.4.3 (the lifetime is not shorter either)
  it('still work just before the lifetime ends', async () => {
    const { clientId, verifier, callback } = await approvedCode({ scope: 'openid' });
    travel(55);
    expect((await exchangeCode(clientId, callback, verifier)).status).toBe(200);
  });
});

describe('refresh tokens', () => {
  // ASVS V10.4.8 (absolute expiration of refresh tokens)
  it('rotate, but the chain ends at the absolute lifetime counted from the first issue', async () => {
    const absolute = getConfig().ttl.refreshToken;
    const { clientId, verifier, callback } = await approvedCode({ scope: 'openid offline_access', prompt: 'consent' });
    const first = await (await exchangeCode(clientId, callback, verifier)).json();
    const provider = await getProvider();
    const issuedAt = (await provider.RefreshToken.find(first.refresh_token))!.iat!;

    let current: string = first.refresh_token;
    for (const day of [10, 20, 29]) {
      travel(day * 86_400);
      const rotated = await tokenRequest({ grant_type: 'refresh_token', refresh_token: current, client_id: clientId });
      expect(rotated.status, `day ${day}`).toBe(200);
      const body = await rotated.json();
      expect(body.refresh_token, `day ${day}: rotated`).not.toBe(current);
      current = body.refresh_token;
      // The rotated token never outlives the chain: its own expiry is the first issue plus the absolute lifetime.
      expect((await provider.RefreshToken.find(current))!.exp, `day ${day}`).toBeLessThanOrEqual(issuedAt + absolute);
    }
    travel(absolute + 60);
    const ended = await tokenRequest({ grant_type: 'refresh_token', refresh_token: current, client_id: clientId });
    expect(ended.status).toBe(400);
    expect((await ended.json()).error).toBe('invalid_grant');
  });
});
