/**
 * The credentials a bad request is sent with: a signed-in session (fresh step-up, so step-up
 * operations reach their parsers) of the owner of an organization (organization.ts), an OAuth access
 * token holding every scope and one bound to that organization, live enrollment and recovery tokens,
 * and a registered client for the protocol endpoints. Made through the real API (tests/helpers), like
 * a browser and a relying party would.
 */
import { SCOPE_TABLE } from '@/lib/oidc';
import { as, get, newClient, post, signInWithPassword, signUpWithPassword, type Mailbox } from '../helpers/accounts';
import { ORIGIN } from '../helpers/http';
import { mintAccessToken, REDIRECT, registerNativeClient } from '../helpers/oauth';
import type { Person } from '../helpers/organizations';
import { addOwner, createProbeOrganization, type ProbeOrganization } from './organization';
import type { ProtocolFixtures } from './protocol-parameters';

export interface Credentials {
  /** The signed-in person (an owner of `organization`) and their browser. */
  person: Person;
  /** When `person` last signed in: the step-up that came with it lasts STEP_UP_TTL_SECONDS. */
  signedInAt: number;
  bearer: string;
  organization: ProbeOrganization;
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

async function newAccount(mailbox: Mailbox): Promise<Person> {
  accounts += 1;
  const email = `probe-${accounts}-${process.pid}@example.com`;
  const userId = await signUpWithPassword(mailbox, email, PASSWORD);
  return { userId, email, browser: await signInWithPassword(email, PASSWORD) };
}

export async function createCredentials(mailbox: Mailbox): Promise<Credentials> {
  const person = await newAccount(mailbox);
  // Every scope (openid for userinfo): scope checks pass, so bearer operations reach their parsers.
  const { value: bearer } = await mintAccessToken(person.userId, SCOPE_TABLE.map((s) => s.scope).join(' '));
  return {
    person,
    signedInAt: Date.now(),
    bearer,
    organization: await createProbeOrganization(mailbox, person),
    enrollmentToken: await tokenFrom(await post('/api/auth/enrollment/start', { email: `probe-new-${process.pid}@example.com` }), 'enrollment_token'),
    recoveryToken: await tokenFrom(await post('/api/auth/recovery/start', { email: person.email }), 'recovery_token'),
    protocol: { baseUrl: ORIGIN, clientId: await registerNativeClient(), redirectUri: REDIRECT },
  };
}

/** Sign in again this long after the last sign-in, inside the 10-minute step-up window. */
const STEP_UP_MARGIN_MS = 8 * 60_000;

/**
 * A generated request that happens to be valid may end the session's usefulness (a password change,
 * ten wrong step-up passwords locking password sign-in), and a long search outlives the step-up: sign
 * in again when the session no longer answers or its step-up is about to age out, as a new account
 * (made an owner of the organization too) when the old one can no longer sign in, so "with a session"
 * never silently degrades into "without one" or "outside the organization".
 */
export async function keepSignedIn(credentials: Credentials, mailbox: Mailbox): Promise<void> {
  const fresh = Date.now() - credentials.signedInAt < STEP_UP_MARGIN_MS;
  if (fresh && (await get('/api/auth/session', { headers: { ...as(credentials.person.browser), 'x-forwarded-for': newClient() } })).status === 200) return;
  credentials.signedInAt = Date.now();
  try {
    credentials.person = { ...credentials.person, browser: await signInWithPassword(credentials.person.email, PASSWORD, { client: newClient() }) };
  } catch {
    credentials.person = await newAccount(mailbox);
    await addOwner(credentials.organization, credentials.person);
  }
  credentials.organization.tenant.owner = credentials.person;
}
