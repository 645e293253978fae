/**
 * What an attacker could guess or forge: ID tokens are only ever signed asymmetrically (never `none`,
 * never an HMAC keyed by a client-known secret), and codes and session secrets are CSPRNG values of
 * the documented size (docs/security.md, "OAuth and OpenID Connect").
 */
import { describe, expect, it } from 'vitest';
import { unsealSessionCookie, newSessionSecret } from '@/lib/sessions/session-cookie';
import { signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { call, operation } from '@/tests/helpers/http';
import { pkce, REDIRECT, registerNativeClient } from '@/tests/helpers/oauth';
import { getProvider } from './provider';

const mailbox = useMailbox();
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Samples of a random generator: all distinct, each `length` characters of base64url, and the 64
 * symbols spread evenly over them (a chi-square test, 63 degrees of freedom, at a bound a uniform
 * source exceeds about once in a hundred thousand runs): no counter, clock or narrow alphabet.
 */
function expectUniformRandom(samples: string[], length: number, positions = length) {
  expect(new Set(samples).size).toBe(samples.length);
  for (const sample of samples) {
    expect(sample).toHaveLength(length);
    expect(sample).toMatch(BASE64URL);
  }
  const counts = new Map<string, number>();
  for (const sample of samples) for (const symbol of sample.slice(0, positions)) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  expect(counts.size).toBe(64);
  const expected = (samples.length * positions) / 64;
  const chiSquare = [...counts.values()].reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
  expect(chiSquare).toBeLessThan(125);
}

describe('ID token signing', () => {
  // ASVS V9.1.2
  it('discovery offers neither none nor an HMAC algorithm for ID tokens', async () => {
    const metadata = await (await call(operation('GET', '/.well-known/openid-configuration'))).json();
    const algorithms = metadata.id_token_signing_alg_values_supported as string[];
    expect(algorithms.length).toBeGreaterThan(0);
    expect(algorithms.filter((alg) => alg === 'none' || /^HS/.test(alg))).toEqual([]);
    for (const key of Object.keys(metadata).filter((k) => k.endsWith('signing_alg_values_supported'))) {
      expect(metadata[key], key).not.toContain('none');
    }
  });

  // ASVS V9.1.2
  it.each(['none', 'HS256', 'HS512'])('refuses a registration asking for ID tokens signed with %s', async (alg) => {
    const response = await call(operation('POST', '/oauth/register'), {
      body: { application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT], id_token_signed_response_alg: alg },
      headers: { 'x-forwarded-for': `2001:db8:a1::${alg.length}${alg.charCodeAt(1)}` },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_client_metadata');
  });
});

describe('random values', () => {
  // ASVS V11.5.1 (CSPRNG, at least 128 bits): codes are 43 base64url characters (258 bits)
  it('authorization codes are distinct 43-character CSPRNG values', async () => {
    const provider = await getProvider();
    const client = (await provider.Client.find(await registerNativeClient()))!;
    const codes: string[] = [];
    for (let i = 0; i < 300; i += 1) {
      const code = new provider.AuthorizationCode({
        accountId: 'sample',
        client,
        grantId: 'sample',
        gty: 'authorization_code',
        redirectUri: REDIRECT,
        scope: 'openid',
        codeChallenge: pkce().challenge,
        codeChallengeMethod: 'S256',
      });
      codes.push(await code.save());
    }
    expectUniformRandom(codes, 43);
  });

  // ASVS V7.2.3, V11.5.1: the session cookie seals a 32-byte (256-bit) random secret
  it('session secrets are distinct 32-byte CSPRNG values, and a real sign-in carries one', async () => {
    const secrets = Array.from({ length: 1000 }, () => newSessionSecret().secret);
    // The 43rd character of 32 bytes in base64url holds only 4 bits: the even spread is over the first 42.
    expectUniformRandom(secrets, 43, 42);
    for (const secret of secrets.slice(0, 10)) expect(Buffer.from(secret, 'base64url')).toHaveLength(32);

    await signUpWithPassword(mailbox, 'random@example.test', 'a long and unusual passphrase');
    const browser = await signInWithPassword('random@example.test', 'a long and unusual passphrase');
    const sealed = await unsealSessionCookie(browser.cookie.slice(browser.cookie.indexOf('=') + 1));
    expect(Buffer.from(sealed!.secret, 'base64url')).toHaveLength(32);
  });
});
