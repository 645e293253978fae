/**
 * The credentials a bad request is sent with: a signed-in session (fresh step-up, so step-up
 * operations reach their parsers), an OAuth access token holding every scope, live enrollment and
 * recovery tokens, and a registered client for the protocol endpoints. Made through the real API
 * (tests/helpers), like a browser and a relying party would.
 */
import { SCOPE_TABLE } from '@/lib/oidc';
import { as, get, newClient, post, signInWithPassword, signUpWithPassword, type Browser, type Mailbox } from '../helpers/accounts';
import { ORIGIN } from '../helpers/http';
import { mintAccessToken, REDIRECT, registerNativeClient } from '../helpers/oauth';
import type { ProtocolFixtures } from './protocol-parameters';

export interface Credentials {
  browser: Browser;
  bearer: string;
  enrollmentToken: string;
  recoveryToken: string;
  protocol: ProtocolFixtures;
}

const PASSWORD = 'probe-password-4f1c9e';
let accounts = 0;

async function tokenFrom(response: Response, field: 'enrollment_token' | 'recovery_token'): Promise<string> {
  if (response.status !== 202) throw new Error(`start failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as Record<string, string>)[field]!;
}

async function newAccount(mailbox: Mailbox): Promise<{ userId: string; email: string; browser: Browser }> {
  accounts += 1;
  const email = `probe-${accounts}-${process.pid}@example.com`;
  const userId = await signUpWithPassword(mailbox, email, PASSWORD);
  return { userId, email, browser: await signInWithPassword(email, PASSWORD) };
}

export async function createCredentials(mailbox: Mailbox): Promise<Credentials> {
  const { userId, email, browser } = await newAccount(mailbox);
  // Every scope (openid for userinfo): scope checks pass, so bearer operations reach their parsers.
  const { value: bearer } = await mintAccessToken(userId, SCOPE_TABLE.map((s) => s.scope).join(' '));
  return {
    browser,
    bearer,
    enrollmentToken: await tokenFrom(await post('/api/auth/enrollment/start', { email: `probe-new-${process.pid}@example.com` }), 'enrollment_token'),
    recoveryToken: await tokenFrom(await post('/api/auth/recovery/start', { email }), 'recovery_token'),
    protocol: { baseUrl: ORIGIN, clientId: await registerNativeClient(), redirectUri: REDIRECT },
  };
}

/**
 * A generated request that happens to be valid may end the session's usefulness (a password change,
 * ten wrong step-up passwords locking password sign-in): sign a new account in when the session no
 * longer answers, so "with a session" never silently degrades into "without one".
 */
export async function keepSignedIn(credentials: Credentials, mailbox: Mailbox): Promise<void> {
  const answer = await get('/api/auth/session', { headers: { ...as(credentials.browser), 'x-forwarded-for': newClient() } });
  if (answer.status === 200) return;
  credentials.browser = (await newAccount(mailbox)).browser;
}
