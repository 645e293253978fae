import { afterEach, describe, expect, it } from 'vitest';
import { call, operation } from '@/tests/helpers/http';
import { authorizationOutcome } from '@/tests/helpers/oauth';
import { withEnv } from '@/tests/setup/state';

const REDIRECT = 'http://127.0.0.1:50001/callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'; // RFC 7636 Appendix B
let clients = 0;

async function registerClient(): Promise<string> {
  const response = await call(operation('POST', '/oauth/register'), {
    body: { application_type: 'native', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], redirect_uris: [REDIRECT] },
    headers: { 'x-forwarded-for': `2001:db8:a0::${(clients += 1)}` },
  });
  return (await response.json()).client_id;
}

async function authorize(params: Record<string, string>) {
  return call(operation('GET', '/oauth/authorize'), { query: new URLSearchParams(params).toString() });
}

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

describe('the authorization endpoint refuses what RFC 9700 and OAuth 2.1 forbid', () => {
  const base = (clientId: string) => ({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid', state: 's1' });

  it('sends a valid request on to the hosted interaction', async () => {
    const clientId = await registerClient();
    const response = await authorize({ ...base(clientId), code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    expect([302, 303]).toContain(response.status);
    expect(response.headers.get('location')).toMatch(/^\/consent\//);
  });

  // ASVS V10.4.4, V10.4.6, V10.6.1
  it.each([
    ['no PKCE', {}],
    ['plain PKCE', { code_challenge: 'plain-verifier-that-is-long-enough-to-pass-43-chars', code_challenge_method: 'plain' }],
    ['the implicit flow', { response_type: 'token', code_challenge: CHALLENGE, code_challenge_method: 'S256' }],
  ])('answers %s with an error for the registered redirect URI, behind our error page (an untrusted client)', async (_name, extra) => {
    const clientId = await registerClient();
    const response = await authorize({ ...base(clientId), ...extra });
    const outcome = await authorizationOutcome(response);
    expect(outcome.landing).toBe('error_page');
    expect(outcome.redirectUri).toBe(REDIRECT);
    // Errors for fragment response types go back in the fragment.
    expect(outcome.answer!.get('error')).toMatch(/invalid_request|unsupported_response_type/);
    expect(outcome.answer!.get('state')).toBe('s1');
    expect(outcome.answer!.get('code')).toBeNull();
  });

  // ASVS V10.4.1
  it('never redirects to an unregistered redirect URI, nor offers to', async () => {
    const clientId = await registerClient();
    const response = await authorize({
      ...base(clientId),
      redirect_uri: 'http://127.0.0.1:50002/evil',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    });
    expect(response.status).toBe(303);
    const outcome = await authorizationOutcome(response);
    expect(outcome.page?.get('error')).toBe('invalid_redirect_uri');
    expect(outcome.redirectUri).toBeNull();
  });

  it('is switched off with the OAuth gate, while metadata stays public', async () => {
    restore = withEnv({ OAUTH_ENABLED: 'false' });
    const token = await call(operation('POST', '/oauth/token'), {
      rawBody: 'grant_type=refresh_token&refresh_token=x&client_id=y',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(token.status).toBe(503);
    expect((await token.json()).error).toBe('temporarily_unavailable');
    expect((await call(operation('GET', '/.well-known/openid-configuration'))).status).toBe(200);
  });
});

describe('PKCE', () => {
  it('matches the RFC 7636 Appendix B test vector (S256), as the relying party computes it', async () => {
    const { createHash } = await import('node:crypto');
    const { calculatePKCECodeChallenge } = await import('openid-client');
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(CHALLENGE);
    expect(await calculatePKCECodeChallenge(verifier)).toBe(CHALLENGE);
  });
});
