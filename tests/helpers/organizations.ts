/**
 * Organizations through the real pipeline, as a browser would drive them (exact Origin, the session
 * cookie, the CSRF header), plus fixtures for people in several organizations.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { DrizzleAdapter } from '@/lib/oidc/adapter';
import { memberships } from '@/lib/db/schema';
import { as, newClient, signInWithPassword, signUpWithPassword, type Browser, type Mailbox } from './accounts';
import { call, operation, ORIGIN, type CallOptions } from './http';
import { mintAccessToken } from './oauth';

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

/** A person's membership row in an organization (test data reads). */
export async function membershipOf(organizationId: string, userId: string) {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row!;
}

/** A fresh organization with its owner (signed in) and the owner's membership id. */
export async function ownedOrganization(mailbox: Mailbox, label = 'ada') {
  const owner = await person(mailbox, label);
  const id = await createOrganization(owner);
  return { owner, id, ownerMembership: (await membershipOf(id, owner.userId)).id };
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

/** The token of the newest invitation link mailed to `email` (the link from the mail, as a person would follow it). */
export function invitationTokenFor(mailbox: Mailbox, email: string): string {
  const link = /\/invitations\/accept\?token=([A-Za-z0-9_%-]+)/.exec(mailbox.textTo(email));
  if (!link) throw new Error(`No invitation link in the last mail to ${email}`);
  return decodeURIComponent(link[1]!);
}

/** Invites `email` into the organization as `owner` (who must hold invitations.manage); returns the invitation id and the mailed token. */
export async function invite(owner: Person, organizationId: string, email: string, role: string, mailbox: Mailbox): Promise<{ id: string; token: string }> {
  const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/invitations', { params: { id: organizationId }, body: { email, role } });
  if (response.status !== 201) throw new Error(`invite failed: ${response.status} ${await response.text()}`);
  return { id: ((await response.json()) as { id: string }).id, token: invitationTokenFor(mailbox, email) };
}

/** Accepts an invitation as `invitee` (signed in); the raw answer, so tests can check refusals too. */
export function acceptInvitation(invitee: Person, token: string, options: CallOptions = {}): Promise<Response> {
  return asBrowser(invitee.browser, 'POST', '/api/organizations/invitations/accept', { ...options, body: { token } });
}

/**
 * An access token bound to `organizationId`. The binding is written into the stored token as the
 * provider records it for a bound grant, so the token stays bound whichever way the provider's
 * extraTokenClaims treats a token minted outside an authorization.
 */
export async function organizationBearer(userId: string, organizationId: string, scope = 'identity.organization.read'): Promise<string> {
  const { value } = await mintAccessToken(userId, scope, { organizationId });
  const store = new DrizzleAdapter('AccessToken');
  const payload = await store.find(value);
  if (!payload) throw new Error('the minted access token is not stored');
  await store.upsert(value, { ...payload, extra: { organization_id: organizationId } }, 600);
  return value;
}

/** GET `path` (a bearer organization read) for organization `id` with the bearer `token`. */
export function asBearer(token: string, path: string, id: string, query?: string): Promise<Response> {
  return call(operation('GET', path), { params: { id }, query, headers: { authorization: `Bearer ${token}` } });
}
