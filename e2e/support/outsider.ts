/**
 * What an outsider does with plain HTTP against the built server, shared by the probes: an account
 * signed in through the documented API, a step-up, a self-registered native client, and an
 * authorization code + PKCE obtained through the consent API (the consent page's own calls).
 */
import { createHash, randomBytes } from 'node:crypto';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { mailCount, waitForCode } from './mail-sink';
import { PASSWORD } from './journeys';

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** An error answer: its status, X-Request-ID, and the body (problem+json or OAuth error). */
export async function problem(response: APIResponse, status: number): Promise<{ code?: string; error?: string; detail?: string }> {
  expect(response.status(), await response.text()).toBe(status);
  expect(response.headers()['x-request-id']).toBeTruthy();
  return (await response.json()) as { code?: string; error?: string; detail?: string };
}

/** An account created and signed in with its password through the documented API; the context keeps its cookie. */
export async function signedIn(request: APIRequestContext, origin: string, email: string): Promise<string> {
  const before = mailCount(email);
  const { enrollment_token } = await (await request.post('/api/auth/enrollment/start', { headers: { origin }, data: { email } })).json();
  const token = { origin, 'x-enrollment-token': enrollment_token };
  expect((await request.post('/api/auth/enrollment/verify-email', { headers: token, data: { code: await waitForCode(email, before) } })).status()).toBe(200);
  expect((await request.post('/api/auth/enrollment/password/complete', { headers: token, data: { password: PASSWORD } })).status()).toBe(201);
  const session = await request.post('/api/auth/signin/password', { headers: { origin }, data: { email, password: PASSWORD } });
  expect(session.status()).toBe(201);
  return (await session.json()).csrf_token as string;
}

/** A password step-up of the context's session; returns the headers of a cookie mutation. */
export async function steppedUp(request: APIRequestContext, origin: string, csrf: string): Promise<Record<string, string>> {
  const headers = { origin, 'x-csrf-token': csrf };
  expect((await request.post('/api/auth/step-up/password', { headers, data: { password: PASSWORD } })).status()).toBe(200);
  return headers;
}

export async function registerClient(request: APIRequestContext, redirectUri: string): Promise<string> {
  const response = await request.post('/oauth/register', {
    data: {
      client_name: 'Probe',
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [redirectUri],
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).client_id as string;
}

export type Authorized = { code: string; verifier: string; interactionId: string };

/**
 * The signed-in context approves `clientId` on the consent API and reads the code off the redirect
 * to the client (never followed: nothing listens on the redirect URI).
 */
export async function authorizationCode(
  request: APIRequestContext,
  origin: string,
  csrf: string,
  authorization: { clientId: string; redirectUri: string; scope: string; extra?: Record<string, string> },
): Promise<Authorized> {
  const verifier = base64url(randomBytes(32));
  const query = new URLSearchParams({
    client_id: authorization.clientId,
    redirect_uri: authorization.redirectUri,
    response_type: 'code',
    scope: authorization.scope,
    prompt: 'consent',
    state: 'probe',
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    ...authorization.extra,
  });
  const toConsent = await request.get(`/oauth/authorize?${query}`, { maxRedirects: 0 });
  const interactionId = /\/consent\/([^/?]+)/.exec(toConsent.headers().location ?? '')?.[1];
  expect(interactionId, toConsent.headers().location).toBeTruthy();
  const decision = await request.post('/oauth/authorize', {
    headers: { origin, 'x-csrf-token': csrf },
    data: { interaction_id: interactionId, decision: 'approve' },
  });
  expect(decision.status(), await decision.text()).toBe(200);
  const toClient = await request.get((await decision.json()).redirect_to, { maxRedirects: 0 });
  const code = new URL(toClient.headers().location!).searchParams.get('code');
  expect(code, toClient.headers().location).toBeTruthy();
  return { code: code!, verifier, interactionId: interactionId! };
}

/** The form of a token request for a code of `authorizationCode`. */
export const codeExchange = (clientId: string, redirectUri: string, authorized: Authorized) => ({
  grant_type: 'authorization_code',
  code: authorized.code,
  client_id: clientId,
  redirect_uri: redirectUri,
  code_verifier: authorized.verifier,
});
