/**
 * Pipeline step 8, inside a tenant: resolves the operation's `tenant` declaration. The organization is
 * loaded once; a non-member and an unknown id get the same 404; a member without the permission gets
 * 403 `forbidden`; the organization's session policies (maximum age, idle timeout, allowed sign-in
 * methods, device binding) are enforced with a re-authentication answer. Bearer credentials act only
 * in the organization they are bound to, and only while the sign-in behind them (for an OAuth token,
 * the one that approved its grant) meets the organization's sign-in age and method policies.
 */
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { assertBearerPolicies, assertSessionPolicies } from '@/lib/contract/policies';
import type { TenantActor, TenantRequirement } from '@/lib/contract/tenant';
import { bearerChallenge } from './bearer-challenge';
import { deviceBinding } from './client-address';
import { credentialStores } from './credentials';

const notFound = () => serviceError('not_found', 'No such organization.');

/** The organization the request acts in, before any data is read. */
function organizationIdOf(requirement: TenantRequirement, actor: Actor, rawParams: Record<string, string>): string | null {
  if (actor.kind === 'bearer') {
    // Spec, Bearer organization reads: the binding is required and must match the path exactly.
    if (!actor.organizationId) throw serviceError('forbidden', 'This credential is not bound to an organization.');
    if (requirement.param === 'id' && rawParams.id !== actor.organizationId)
      throw serviceError('forbidden', 'This credential is bound to another organization.');
    return actor.organizationId;
  }
  if (actor.kind !== 'session') return null;
  return requirement.param === 'id' ? (rawParams.id ?? null) : null;
}

export async function authorizeTenant(
  requirement: TenantRequirement,
  actor: Actor,
  rawParams: Record<string, string>,
  request: Request,
  now: Date,
): Promise<TenantActor> {
  const organizationId = organizationIdOf(requirement, actor, rawParams);
  if (!organizationId || (actor.kind !== 'session' && actor.kind !== 'bearer')) throw notFound();
  const tenant = await credentialStores.tenant(organizationId, actor.userId, now);
  if (!tenant) throw notFound();
  if (!tenant.permissions.has(requirement.permission)) {
    throw serviceError('forbidden', `This needs the organization permission "${requirement.permission}".`, { extras: { permission: requirement.permission } });
  }
  if (requirement.ownerOnly && tenant.role !== 'owner')
    throw serviceError('forbidden', 'Only an owner of the organization may do this.', { extras: { permission: 'owner' } });
  if (actor.kind === 'session') assertSessionPolicies(tenant.policies, actor, () => deviceBinding(request.headers), now);
  // A bound token is judged by the sign-in that approved its grant (age, methods): the same policies.
  if (actor.kind === 'bearer') assertBearerPolicies(tenant.policies, actor, now, bearerChallenge('invalid_token'));
  return tenant;
}
