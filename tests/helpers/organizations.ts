/**
 * Organizations through the real pipeline, as a browser would drive them (exact Origin, the session
 * cookie, the CSRF header), plus fixtures for people in several organizations.
 */
import { randomUUID } from 'node:crypto';
import { getDb } from '@/lib/db';
import { memberships } from '@/lib/db/schema';
import { as, newClient, signInWithPassword, signUpWithPassword, type Browser, type Mailbox } from './accounts';
import { call, operation, ORIGIN, type CallOptions } from './http';

export const PASSWORD = 'organization test passphrase';
let people = 0;

export interface Person {
  userId: string;
  email: string;
  browser: Browser;
}

/** A new account, signed in with its password (a fresh password step-up comes with the sign-in). */
export async function person(mailbox: Mailbox, label = 'person'): Promise<Person> {
  people += 1;
  const email = `${label}.${people}.${randomUUID().slice(0, 8)}@example.test`;
  const userId = await signUpWithPassword(mailbox, email, PASSWORD);
  return { userId, email, browser: await signInWithPassword(email, PASSWORD) };
}

/** Calls the operation at METHOD path as the browser (cookie, CSRF, exact Origin, own client address). */
export function asBrowser(browser: Browser | null, method: string, path: string, options: CallOptions = {}): Promise<Response> {
  return call(operation(method, path), {
    ...options,
    headers: { origin: ORIGIN, 'x-forwarded-for': newClient(), ...(browser ? as(browser) : {}), ...options.headers },
  });
}

export async function createOrganization(owner: Person, name = 'Acme'): Promise<string> {
  const response = await asBrowser(owner.browser, 'POST', '/api/organizations', { body: { name } });
  if (response.status !== 201) throw new Error(`create organization failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * Puts a person into an organization with a built-in role, as test data (the invitation flow has its
 * own tests). Returns the membership id.
 */
export async function joinAs(organizationId: string, userId: string, role: 'owner' | 'admin' | 'member', now = new Date()): Promise<string> {
  const id = randomUUID();
  await (await getDb()).insert(memberships).values({ id, organizationId, userId, role, status: 'active', createdAt: now, updatedAt: now });
  return id;
}
