/**
 * Organization-bound authorizations (docs/decisions.md, "Organization-bound OAuth authorizations").
 * A request for an organization scope is bound to exactly one organization the person is an active
 * member of: the one its `organization` parameter names, or the one the person chooses on the consent
 * page. The binding is kept beside the grant (oidc_grant_organizations); every access token issued
 * from the grant, at code exchange and at refresh, carries it as `extra.organization_id`
 * (bearer.ts reads it), and `endOrganizationGrants` revokes a person's bound grants when their
 * membership ends. The sign-in whose session approved the grant is recorded with the binding: the
 * organization's sign-in policies (age, methods) judge the grant's tokens by it, on every use in the
 * organization (the pipeline's tenant step) and at every refresh (`organizationTokenClaims`).
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { SessionActor, SignInRecord } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { isUuid } from '@/lib/contract/ids';
import { assertSessionPolicies, sessionSignInMethods, signInViolation, tenantPolicies, validValue } from '@/lib/contract/policies';
import type { SignInMethod } from '@/lib/contract/tenant';
import { getDb, type Executor } from '@/lib/db';
import { destroyGrant } from './adapter.repo';
import {
  activeOrganizationsOf,
  bindGrant,
  clientGrantsBoundTo,
  grantBinding,
  grantsBoundTo,
  isActiveMember,
  isAssignedApplication,
  memberOrganizationName,
  organizationPolicyRows,
} from './organization-binding.repo';
import { CHOOSER_LIMIT } from './terms';

/** Scopes that read an organization: a token carrying one acts inside exactly one organization. */
export const ORGANIZATION_SCOPES: readonly string[] = ['identity.organization.read', 'identity.organization.members.read'];

/** The authorization request parameter that names the organization (an extra parameter of the provider). */
export const ORGANIZATION_PARAMETER = 'organization';

export function asksForOrganization(scope: unknown): boolean {
  return (typeof scope === 'string' ? scope : '').split(' ').some((s) => ORGANIZATION_SCOPES.includes(s));
}

/**
 * Why the `organization` parameter cannot be accepted with this scope (an `invalid_request`
 * description), or null. Sent without an organization scope it is refused rather than ignored: the
 * client would otherwise believe it holds an organization-bound token.
 */
export function organizationParameterViolation(organization: unknown, scope: unknown): string | null {
  if (organization === undefined || organization === null) return null;
  if (typeof organization !== 'string' || !isUuid(organization)) return 'organization must be an organization id (a UUID)';
  if (!asksForOrganization(scope)) return `organization is accepted only with the scope ${ORGANIZATION_SCOPES.join(' or ')}`;
  return null;
}

type CheckClass = typeof import('oidc-provider').interactionPolicy.Check;

/** A consent-prompt check: an organization-bound authorization is always decided on the consent page. */
export function organizationBindingCheck(Check: CheckClass) {
  return new Check('organization_binding', 'an organization-bound authorization requires End-User interaction', 'interaction_required', (ctx) =>
    asksForOrganization(ctx.oidc.params?.scope) && !ctx.oidc.result?.consent ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
  );
}

export type OrganizationRefusal = 'not_a_member' | 'no_organizations' | 'application_not_assigned';

/**
 * The organization's `applications.assigned_only` policy: when on, an authorization bound to it is
 * allowed only for applications the organization has actively assigned (lib/organizations,
 * applications). Off (the default): any application.
 */
export async function applicationAllowedIn(db: Executor, organizationId: string, clientId: string): Promise<boolean> {
  const policy = (await organizationPolicyRows(db, organizationId)).find((row) => row.key === 'applications.assigned_only');
  if (!policy || validValue('applications.assigned_only', policy.value) !== true) return true;
  return isAssignedApplication(db, organizationId, clientId);
}

const NOT_ASSIGNED =
  'This organization lets its members use only the applications it has assigned, and this application is not one of them. Ask an administrator of the organization to assign it.';

export interface OrganizationChoice {
  /** The request asks for an organization scope: the authorization is bound to one organization. */
  required: boolean;
  /** The organization the request names (its `organization` parameter), if any. */
  requested: string | null;
  /** What the person may choose from: the requested one, or every active membership of theirs. */
  organizations: { id: string; name: string }[];
  /** Why nothing can be granted: the person may only deny. */
  refusal: OrganizationRefusal | null;
}

/** What the consent page offers a person for a pending request (see `OrganizationChoice`). */
export async function organizationChoice(userId: string, params: Record<string, unknown>): Promise<OrganizationChoice> {
  if (!asksForOrganization(params.scope)) return { required: false, requested: null, organizations: [], refusal: null };
  const db = await getDb();
  const clientId = String(params.client_id ?? '');
  const requested = typeof params[ORGANIZATION_PARAMETER] === 'string' ? (params[ORGANIZATION_PARAMETER] as string) : null;
  if (requested) {
    const name = isUuid(requested) ? await memberOrganizationName(db, requested, userId) : null;
    if (name === null) return { required: true, requested, organizations: [], refusal: 'not_a_member' };
    if (!(await applicationAllowedIn(db, requested, clientId))) return { required: true, requested, organizations: [], refusal: 'application_not_assigned' };
    return { required: true, requested, organizations: [{ id: requested, name }], refusal: null };
  }
  const memberOf = await activeOrganizationsOf(db, userId, CHOOSER_LIMIT);
  // Organizations whose policy refuses this application are not offered.
  const organizations = [];
  for (const organization of memberOf) if (await applicationAllowedIn(db, organization.id, clientId)) organizations.push(organization);
  if (organizations.length) return { required: true, requested: null, organizations, refusal: null };
  return { required: true, requested: null, organizations, refusal: memberOf.length ? 'application_not_assigned' : 'no_organizations' };
}

const choiceField = (message: string) => serviceError('invalid_request', message, { extras: { errors: [{ path: 'body.organization_id', message }] } });

/**
 * The organization an approval binds the grant to (null: the request asks for no organization scope).
 * The request's own `organization` wins and cannot be changed on the page; otherwise the person's
 * choice is required. Either way the person must be an active member.
 */
export async function organizationToBind(userId: string, params: Record<string, unknown>, chosen: string | undefined): Promise<string | null> {
  if (!asksForOrganization(params.scope)) {
    if (chosen !== undefined) throw choiceField('This application does not ask for access to an organization.');
    return null;
  }
  const requested = typeof params[ORGANIZATION_PARAMETER] === 'string' ? (params[ORGANIZATION_PARAMETER] as string) : undefined;
  if (requested && chosen !== undefined && chosen !== requested) throw choiceField('The application asked for another organization.');
  const organizationId = requested ?? chosen;
  if (!organizationId) throw choiceField('Choose the organization the application may access.');
  const db = await getDb();
  if (!isUuid(organizationId) || !(await isActiveMember(db, organizationId, userId))) {
    throw serviceError(
      'forbidden',
      requested
        ? 'You are not an active member of the organization this application asks for, so you cannot allow it.'
        : 'You are not an active member of this organization.',
    );
  }
  if (!(await applicationAllowedIn(db, organizationId, String(params.client_id ?? '')))) throw serviceError('forbidden', NOT_ASSIGNED);
  return organizationId;
}

/**
 * Approving an authorization bound to an organization is signing in to it for the application: the
 * organization's session policies (session age, idle time, allowed sign-in methods, device binding)
 * apply to the approving session as they apply to the organization's own operations.
 */
export async function assertOrganizationSessionPolicies(organizationId: string, actor: SessionActor, requestBinding: () => string, now: Date): Promise<void> {
  assertSessionPolicies(tenantPolicies(await organizationPolicyRows(await getDb(), organizationId)), actor, requestBinding, now);
}

/** The organization a grant is bound to, or null (grants without organization scopes). */
export async function organizationOfGrant(grantId: string | undefined): Promise<string | null> {
  if (!grantId) return null;
  return (await grantBinding(await getDb(), grantId))?.organizationId ?? null;
}

/** The sign-in an approving session stands for: how it proved itself (step-up included) and when. */
export function approvingSignIn(actor: SessionActor): SignInRecord {
  return { methods: [...sessionSignInMethods(actor)], authenticatedAt: actor.authenticatedAt };
}

export async function recordBinding(grantId: string, organizationId: string, signIn: SignInRecord, userId: string, now: Date): Promise<void> {
  await bindGrant(await getDb(), { grantId, organizationId, userId, createdAt: now, signInMethods: signIn.methods, authenticatedAt: signIn.authenticatedAt });
}

const SIGN_IN_METHODS: readonly string[] = ['passkey', 'password', 'email_code', 'federation'] satisfies SignInMethod[];

/** The recorded sign-in of a binding; null when it was bound before sign-ins were recorded. */
function recordedSignIn(binding: { signInMethods: string[] | null; authenticatedAt: Date | null }): SignInRecord | null {
  if (!binding.signInMethods || !binding.authenticatedAt) return null;
  return { methods: binding.signInMethods.filter((m): m is SignInMethod => SIGN_IN_METHODS.includes(m)), authenticatedAt: binding.authenticatedAt };
}

/** The sign-in that approved a bound grant (null: unbound, or bound before sign-ins were recorded). */
export async function grantSignIn(grantId: string): Promise<SignInRecord | null> {
  const binding = await grantBinding(await getDb(), grantId);
  return binding ? recordedSignIn(binding) : null;
}

interface IssuedToken {
  grantId?: string;
  clientId?: string;
  accountId?: string;
  extra?: Record<string, unknown>;
}

/**
 * oidc-provider's `extraTokenClaims` (called for every access token it saves: code exchange, refresh):
 * a token of a bound grant carries `organization_id`; once the membership is no longer active, or the
 * sign-in that approved the grant no longer meets the organization's sign-in policies, the grant
 * issues nothing more (`invalid_grant`). Other tokens keep whatever `extra` they were given.
 */
export function organizationTokenClaims(invalidGrant: (description: string) => Error) {
  return async (_ctx: KoaContextWithOIDC | undefined, token: unknown): Promise<Record<string, unknown> | undefined> => {
    const issued = token as IssuedToken;
    if (!issued.grantId) return issued.extra;
    const db = await getDb();
    const binding = await grantBinding(db, issued.grantId);
    if (!binding) return issued.extra;
    if (binding.userId !== issued.accountId || !(await isActiveMember(db, binding.organizationId, binding.userId))) {
      throw invalidGrant('the organization membership this authorization is bound to is no longer active');
    }
    // The policy may have been switched on after the authorization: it holds at refresh too.
    if (!(await applicationAllowedIn(db, binding.organizationId, String(issued.clientId ?? '')))) {
      throw invalidGrant('the organization this authorization is bound to no longer allows this application');
    }
    // The organization's sign-in policies, as the tenant step applies them to the tokens (policies.ts).
    const violation = signInViolation(tenantPolicies(await organizationPolicyRows(db, binding.organizationId)), recordedSignIn(binding), new Date());
    if (violation) throw invalidGrant(`the sign-in that approved this authorization does not meet the organization's policy (${violation.reason})`);
    return { ...issued.extra, organization_id: binding.organizationId };
  };
}

/**
 * A person's membership of an organization is no longer active: every grant of theirs bound to it
 * goes, with every code, access and refresh token issued under it (the revocation consent withdrawal
 * uses). Runs in the caller's transaction; returns the number of grants revoked.
 */
export async function endOrganizationGrants(tx: Executor, member: { userId: string; organizationId: string }, _now: Date): Promise<number> {
  const grants = await grantsBoundTo(tx, member.organizationId, member.userId);
  for (const grantId of grants) await destroyGrant(tx, grantId);
  return grants.length;
}

/**
 * An organization unassigned an application: every grant of that client bound to the organization
 * goes (with its codes and tokens), whoever's it is; the client's other grants stay. Runs in the
 * caller's transaction; returns the number of grants revoked.
 */
export async function endOrganizationClientGrants(tx: Executor, organizationId: string, clientId: string): Promise<number> {
  const grants = await clientGrantsBoundTo(tx, organizationId, clientId);
  for (const grantId of grants) await destroyGrant(tx, grantId);
  return grants.length;
}
