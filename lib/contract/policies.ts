/**
 * The organization policy catalogue: each `policy_key`, its value's type (zod), its default and what
 * it does. An unset policy means the default applies; setting one may only tighten the service's own
 * boundaries (a policy can shorten the session lifetime, never lengthen it past the service's).
 */
import { z } from 'zod';
import { getConfig } from '@/lib/config';
import type { BearerActor, SessionActor, SignInRecord } from './actor';
import { serviceError } from './errors';
import { isPolicyKey, type PolicyKey } from './policy-keys';
import { APPROVAL_ACTIONS, type SignInMethod, type TenantPolicies } from './tenant';

export { isPolicyKey, POLICY_KEYS, type PolicyKey } from './policy-keys';

const uniqueList = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .min(1)
    .refine((list) => new Set(list).size === list.length, 'Each value may appear once.');

interface PolicyDefinition {
  description: string;
  /** Built per call: the bounds follow the service's configured lifetimes. */
  schema: () => z.ZodType;
  defaultValue: () => unknown;
  /**
   * Whether `after` lets through something `before` stopped (both valid values): moving a policy that
   * way takes part of it away, like deleting it, and passes the same approval gate.
   */
  loosens: (before: never, after: never) => boolean;
}

const larger = (before: number, after: number) => after > before;
const adds = <T>(before: readonly T[], after: readonly T[]) => after.some((value) => !before.includes(value));
const drops = <T>(before: readonly T[], after: readonly T[]) => before.some((value) => !after.includes(value));

export const POLICY_CATALOGUE = {
  'session.max_age_seconds': {
    description:
      "Members' sessions older than this (since sign-in) must sign in again to act in the organization; OAuth tokens bound to it stop working, and refreshing, once the sign-in that approved them is older.",
    schema: () => z.int().min(300).max(getConfig().ttl.sessionAbsolute),
    defaultValue: () => getConfig().ttl.sessionAbsolute,
    loosens: larger,
  },
  'session.idle_timeout_seconds': {
    description: 'A session unused for longer than this must sign in again to act in the organization.',
    schema: () => z.int().min(300).max(getConfig().ttl.sessionIdle),
    defaultValue: () => getConfig().ttl.sessionIdle,
    loosens: larger,
  },
  'step_up.max_age_seconds': {
    description: "How recent a step-up must be for the organization's sensitive changes.",
    schema: () => z.int().min(30).max(getConfig().ttl.stepUp),
    defaultValue: () => getConfig().ttl.stepUp,
    loosens: larger,
  },
  'signin.allowed_methods': {
    description:
      'Sign-in methods that count for acting in the organization, and for OAuth authorizations bound to it (judged by the sign-in that approved them, on every use and refresh).',
    schema: () => uniqueList(z.enum(['passkey', 'password', 'email_code', 'federation'])),
    defaultValue: () => ['passkey', 'password', 'email_code', 'federation'],
    loosens: adds,
  },
  'session.binding': {
    description:
      "When on, a member's session acts in the organization only from the device it signed in on: the same user agent and client network (IPv4 /24, IPv6 /64).",
    schema: () => z.boolean(),
    defaultValue: () => false,
    loosens: (before: boolean, after: boolean) => before && !after,
  },
  'approvals.required_for': {
    description: 'Sensitive changes that go through only with an approved request from another admin.',
    schema: () => z.array(z.enum(APPROVAL_ACTIONS)).refine((list) => new Set(list).size === list.length, 'Each value may appear once.'),
    defaultValue: () => [],
    loosens: drops,
  },
  'applications.assigned_only': {
    description:
      'When on, members may authorize (bind to the organization) only the applications the organization has assigned; other applications are refused on the consent page and at refresh.',
    schema: () => z.boolean(),
    defaultValue: () => false,
    loosens: (before: boolean, after: boolean) => before && !after,
  },
} as const satisfies Record<PolicyKey, PolicyDefinition>;

/** Whether changing the policy from `before` to `after` (both valid values) loosens it. */
export function loosens(key: PolicyKey, before: unknown, after: unknown): boolean {
  return (POLICY_CATALOGUE[key].loosens as (before: unknown, after: unknown) => boolean)(before, after);
}

/** A stored value that no longer fits its schema (bounds changed with the configuration) counts as unset. */
export function validValue(key: PolicyKey, value: unknown): unknown {
  const parsed = POLICY_CATALOGUE[key].schema().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The policies the pipeline enforces, from an organization's stored rows. */
export function tenantPolicies(rows: { key: string; value: unknown }[]): TenantPolicies {
  const set = new Map<PolicyKey, unknown>();
  for (const row of rows) if (isPolicyKey(row.key)) set.set(row.key, validValue(row.key, row.value));
  const get = <T>(key: PolicyKey): T | null => (set.get(key) ?? null) as T | null;
  return {
    sessionMaxAgeSeconds: get('session.max_age_seconds'),
    sessionIdleTimeoutSeconds: get('session.idle_timeout_seconds'),
    stepUpMaxAgeSeconds: get('step_up.max_age_seconds'),
    signinAllowedMethods: get('signin.allowed_methods'),
    sessionBinding: get<boolean>('session.binding') ?? false,
    approvalsRequiredFor: get('approvals.required_for') ?? [],
  };
}

const METHOD_OF_AMR: Record<string, SignInMethod> = { hwk: 'passkey', pwd: 'password', otp: 'email_code', fed: 'federation' };

/** The methods a session has proven: how it signed in, and its step-up. */
export function sessionSignInMethods(actor: SessionActor): Set<SignInMethod> {
  const used = new Set(actor.amr.map((amr) => METHOD_OF_AMR[amr]).filter((method): method is SignInMethod => method !== undefined));
  if (actor.stepUpMethod) used.add(actor.stepUpMethod);
  return used;
}

/** Why a credential's sign-in or session does not meet the organization's policies. */
export type PolicyViolation =
  | { reason: 'session_max_age'; max_age_seconds: number }
  | { reason: 'session_idle_timeout' }
  | { reason: 'signin_method'; allowed_methods: SignInMethod[] }
  | { reason: 'session_binding' };

const ageSeconds = (since: Date, now: Date) => (now.getTime() - since.getTime()) / 1000;

function ageViolation(policies: TenantPolicies, authenticatedAt: Date, now: Date): PolicyViolation | null {
  const maxAge = policies.sessionMaxAgeSeconds;
  return maxAge !== null && ageSeconds(authenticatedAt, now) > maxAge ? { reason: 'session_max_age', max_age_seconds: maxAge } : null;
}

function methodViolation(policies: TenantPolicies, used: ReadonlySet<SignInMethod>): PolicyViolation | null {
  const allowed = policies.signinAllowedMethods;
  return allowed !== null && !allowed.some((method) => used.has(method)) ? { reason: 'signin_method', allowed_methods: allowed } : null;
}

/**
 * The policies that judge a sign-in itself (its age, the methods it proved), whatever credential it
 * stands behind: a session, or an OAuth grant that session approved. An unknown sign-in meets none
 * of them. Idle timeout and device binding judge a browser session's use, not a sign-in: they do not
 * apply to tokens (docs/security.md, "Organization policies and OAuth tokens").
 */
export function signInViolation(policies: TenantPolicies, signIn: SignInRecord | null | undefined, now: Date): PolicyViolation | null {
  const { methods, authenticatedAt } = signIn ?? UNKNOWN_SIGN_IN;
  return ageViolation(policies, authenticatedAt, now) ?? methodViolation(policies, new Set(methods));
}

/** Proves no method and is as old as can be: it fails every sign-in policy that is set, and no other. */
const UNKNOWN_SIGN_IN: SignInRecord = { methods: [], authenticatedAt: new Date(0) };

const SESSION_DETAIL: Record<PolicyViolation['reason'], string> = {
  session_max_age: 'This organization requires a more recent sign-in.',
  session_idle_timeout: 'This session was idle for longer than the organization allows.',
  signin_method: 'This organization requires another sign-in method.',
  session_binding: 'This organization accepts the session only from the device it signed in on.',
};

const TOKEN_DETAIL: Partial<Record<PolicyViolation['reason'], string>> = {
  session_max_age:
    'The sign-in that authorized this token is older than this organization allows: the person must sign in and authorize the application again.',
  signin_method:
    'The sign-in that authorized this token used a method this organization does not accept: the person must sign in with one it accepts and authorize the application again.',
};

/** 401 with what the caller must do: `reauthentication: { reason, ... }` (sign in again, as allowed). */
function reauthenticate(detail: string, violation: PolicyViolation, headers?: Record<string, string>): never {
  throw serviceError('reauthentication_required', detail, { extras: { reauthentication: violation }, headers });
}

/**
 * The organization's session policies, applied to every session request that acts in it (the
 * pipeline's tenant step) and to an OAuth authorization bound to it (the consent decision).
 * `requestBinding`: the keyed device binding of the request (lib/http/client-address.ts), computed only
 * when the organization's binding policy is on.
 */
export function assertSessionPolicies(policies: TenantPolicies, actor: SessionActor, requestBinding: () => string, now: Date): void {
  const violation =
    ageViolation(policies, actor.authenticatedAt, now) ??
    (policies.sessionIdleTimeoutSeconds !== null && ageSeconds(actor.lastSeenAt, now) > policies.sessionIdleTimeoutSeconds
      ? ({ reason: 'session_idle_timeout' } as const)
      : null) ??
    methodViolation(policies, sessionSignInMethods(actor)) ??
    (policies.sessionBinding && actor.bindingHash !== requestBinding() ? ({ reason: 'session_binding' } as const) : null);
  if (violation) reauthenticate(SESSION_DETAIL[violation.reason], violation);
}

/**
 * The same policies for a bearer credential acting in the organization (the pipeline's tenant step),
 * judged on the sign-in behind it (`signInViolation`); the refresh of a bound grant applies the same
 * judgement (lib/oidc/organization-binding.ts). `challenge`: the RFC 6750 header the refusal carries.
 */
export function assertBearerPolicies(policies: TenantPolicies, actor: BearerActor, now: Date, challenge: string): void {
  const violation = signInViolation(policies, actor.signIn, now);
  if (violation) reauthenticate(TOKEN_DETAIL[violation.reason] ?? SESSION_DETAIL[violation.reason], violation, { 'WWW-Authenticate': challenge });
}
