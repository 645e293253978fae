import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { ANONYMOUS, type Actor, type SessionActor } from '@/lib/contract/actor';
import { bearerToken } from '@/lib/contract/authorization-header';
import { serviceError } from '@/lib/contract/errors';
import type { AnyOperation, AuthTerm, SessionCookieInstruction, StepUpMethod, StepUpTerm } from '@/lib/contract/operation';
import { assertRecentStepUp, hasRecentStepUp } from '@/lib/contract/step-up';
import type { TenantActor } from '@/lib/contract/tenant';
import { csrfTokenFor } from '@/lib/sessions';
import { sessionCookieName } from '@/lib/sessions';
import { bearerChallenge } from './bearer-challenge';
import { credentialStores } from './credentials';
import { authorizeTenant } from './tenant';

export function readCookie(headers: Headers, name: string): string | null {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function unauthenticated(detail: string, challenge?: string): never {
  throw serviceError('unauthenticated', detail, challenge ? { headers: { 'WWW-Authenticate': challenge } } : {});
}

/**
 * Refusals of requests that presented no credential at all: a visitor who is simply signed out, not a
 * failed authentication, so the security log leaves them out (security-events.ts).
 */
const withoutCredential = new WeakSet<object>();

export function presentedNoCredential(error: unknown): boolean {
  return typeof error === 'object' && error !== null && withoutCredential.has(error);
}

function noCredential(detail: string, challenge?: string): never {
  try {
    unauthenticated(detail, challenge);
  } catch (error) {
    withoutCredential.add(error as object);
    throw error;
  }
}

/** Pipeline step 6: establish the actor the operation's term requires, or refuse with 401. */
export async function authenticate(term: AuthTerm, request: Request, now: Date): Promise<Actor> {
  const headers = request.headers;
  switch (term.kind) {
    case 'public':
      return ANONYMOUS;
    case 'session': {
      const cookie = readCookie(headers, sessionCookieName());
      if (!cookie) noCredential('Sign in first.');
      return (await credentialStores.session(cookie, now)) ?? unauthenticated('Sign in first.');
    }
    case 'enrollment_token': {
      const token = headers.get('x-enrollment-token');
      if (!token) noCredential('A valid X-Enrollment-Token is required.');
      return (await credentialStores.enrollmentToken(token, now)) ?? unauthenticated('A valid X-Enrollment-Token is required.');
    }
    case 'recovery_token': {
      const token = headers.get('x-recovery-token');
      if (!token) noCredential('A valid X-Recovery-Token is required.');
      return (await credentialStores.recoveryToken(token, now)) ?? unauthenticated('A valid X-Recovery-Token is required.');
    }
    case 'bearer': {
      const token = bearerToken(headers.get('authorization'));
      if (!token && !headers.has('authorization')) noCredential('A bearer credential is required.', bearerChallenge());
      if (!token) unauthenticated('A bearer credential is required.', bearerChallenge());
      // The prefix decides the kind (ARCHITECTURE.md, interface conventions).
      const kind = token.startsWith('idk_') ? 'api_key' : token.startsWith('scim_') ? 'scim' : 'oauth';
      if (kind === 'scim' || !term.accepts.includes(kind)) unauthenticated('This credential kind is not accepted here.', bearerChallenge('invalid_token'));
      const actor = kind === 'api_key' ? await credentialStores.apiKey(token, now) : await credentialStores.oauthAccessToken(token, now);
      return actor ?? unauthenticated('The bearer credential is invalid, expired or revoked.', bearerChallenge('invalid_token'));
    }
    case 'scim_token': {
      const token = bearerToken(headers.get('authorization'));
      const actor = token?.startsWith('scim_') ? await credentialStores.scimToken(token, now) : null;
      return actor ?? unauthenticated('A valid SCIM bearer token is required.', 'Bearer realm="scim"');
    }
    case 'client_auth': {
      const actor = await credentialStores.clientAuthentication(request, now);
      return actor ?? unauthenticated('Client authentication failed.');
    }
  }
}

/**
 * `__Host-session` over HTTPS (no Domain, Path=/, Secure: it cannot be planted by a sibling host);
 * `session` on plain-http localhost. httpOnly, SameSite=Lax.
 */
export function sessionCookieHeader(instruction: SessionCookieInstruction): string {
  const secure = getConfig().secureCookies;
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
  if ('clear' in instruction) return [`${sessionCookieName()}=`, 'Max-Age=0', ...attributes].join('; ');
  return [`${sessionCookieName()}=${instruction.set}`, `Max-Age=${instruction.maxAgeSeconds}`, ...attributes].join('; ');
}

/**
 * Both sides of a CSRF comparison are reduced to HMAC digests under a per-process key before the
 * constant-time compare: the digests always have the same length, so a token of any length or
 * encoding (characters vs UTF-8 bytes differ for non-ASCII input) is simply unequal, never an error,
 * and the comparison time says nothing about the expected token.
 */
const comparisonKey = randomBytes(32);
const digest = (value: string) => createHmac('sha256', comparisonKey).update(value, 'utf8').digest();

/** Pipeline step 7: cookie-authenticated unsafe methods prove they come from our pages. */
export function assertCsrf(actor: Actor, headers: Headers, formToken: string | null): void {
  if (actor.kind !== 'session') return;
  const given = headers.get('x-csrf-token') ?? formToken;
  if (!given || !timingSafeEqual(digest(given), digest(csrfTokenFor(actor.sessionId)))) {
    throw serviceError('csrf_failed', 'Send the X-CSRF-Token header from GET /api/auth/session.');
  }
}

/**
 * Pipeline step 8: scopes; inside a tenant, the membership, permission and the organization's session
 * policies (tenant.ts); then the step-up the auth term requires (its window shortened by the
 * organization's `step_up.max_age_seconds`). A non-member learns nothing, not even that a step-up
 * would be needed: tenant resolution comes first.
 */
export async function authorize(
  op: Pick<AnyOperation, 'auth' | 'tenant'>,
  actor: Actor,
  rawParams: Record<string, string>,
  request: Request,
  now: Date,
): Promise<TenantActor | null> {
  const term: AuthTerm = op.auth;
  if (term.kind === 'bearer' && actor.kind === 'bearer') {
    const held = new Set(actor.scopes);
    const ok = term.scopeMode === 'any' ? term.scopes.some((s) => held.has(s)) : term.scopes.every((s) => held.has(s));
    if (!ok) {
      const scope = term.scopes.join(' ');
      throw serviceError('insufficient_scope', `Required scope: ${scope}.`, {
        headers: { 'WWW-Authenticate': bearerChallenge('insufficient_scope', scope) },
      });
    }
  }
  const tenant = op.tenant ? await authorizeTenant(op.tenant, actor, rawParams, request, now) : null;
  // A conditional step-up waits for the parsed input (authorizeInput).
  if (term.kind === 'session' && term.stepUp && !term.stepUp.onlyWhen && actor.kind === 'session') await assertStepUp(term.stepUp, actor, now, tenant);
  return tenant;
}

/** Pipeline step 9, after parsing: a step-up the auth term requires only for some inputs. */
export async function authorizeInput(
  term: AuthTerm,
  actor: Actor,
  input: { params: unknown; body: unknown },
  now: Date,
  tenant: TenantActor | null,
): Promise<void> {
  if (term.kind !== 'session' || !term.stepUp?.onlyWhen || actor.kind !== 'session') return;
  if (term.stepUp.onlyWhen.applies(input, actor)) await assertStepUp(term.stepUp, actor, now, tenant);
}

async function assertStepUp(stepUp: StepUpTerm, actor: SessionActor, now: Date, tenant: TenantActor | null): Promise<void> {
  const window = getConfig().ttl.stepUp;
  const maxAgeSeconds = Math.min(window, tenant?.policies.stepUpMaxAgeSeconds ?? window);
  const rule = { methods: stepUp.methods, maxAgeSeconds };
  // "Recent passkey step-up": a passkey step-up satisfies it without asking which methods the account has.
  if (!stepUp.passkeyWhenEnrolled || hasRecentStepUp(actor, { ...rule, methods: ['passkey'] }, now)) {
    return assertRecentStepUp(actor, rule, now, credentialStores.stepUpMethods);
  }
  const available = await credentialStores.stepUpMethods(actor.userId);
  const methods: StepUpMethod[] = available.includes('passkey') ? ['passkey'] : stepUp.methods.filter((m) => m !== 'passkey');
  return assertRecentStepUp(actor, { methods, maxAgeSeconds }, now, async () => available);
}

/**
 * For operations that start a session: the live session the request's cookie belongs to (or null),
 * resolved like the session term resolves it, so the new sign-in can end it.
 */
export async function presentedSession(request: Request, now: Date): Promise<SessionActor | null> {
  const cookie = readCookie(request.headers, sessionCookieName());
  return cookie ? credentialStores.session(cookie, now) : null;
}
