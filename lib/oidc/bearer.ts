/**
 * The OAuth bearer term for our own API: the access token is looked up in the provider's store
 * (opaque tokens; a revoked or expired token is gone or invalid), its grant must still stand, it
 * must be meant for this API (no resource indicator, or the API resource — a token for
 * {base_url}/mcp is accepted only by /mcp) and must not be sender-constrained (no DPoP on this
 * resource server yet). The MCP endpoint has the mirror rule: only tokens whose audience is exactly {base_url}/mcp (resolveMcpAccessToken).
 */
import type { Actor } from '@/lib/contract/actor';
import { getConfig } from '@/lib/config';
import { storageId } from './model-secrets';
import { grantSignIn } from './organization-binding';
import { getProvider } from './provider';
import { apiResource, mcpResource } from './resources';
import { SCOPE_TABLE } from './scopes';

type BearerActor = Extract<Actor, { kind: 'bearer' }>;

/** `profile` and `email` count as their identity.* scopes (ARCHITECTURE.md, OAuth conventions). */
export function canonicalScopes(scope: string | undefined): string[] {
  const granted = (scope ?? '').split(' ').filter(Boolean);
  const expanded = granted.map((s) => SCOPE_TABLE.find((d) => d.scope === s)?.aliasOf ?? s);
  return [...new Set(expanded)];
}

/** No audience (the provider's own token for this API) or exactly the API resource (resources.ts). */
function audienceAllowsApi(aud: string | string[] | undefined): boolean {
  if (aud === undefined) return true;
  const api = apiResource(getConfig().baseUrl);
  return (Array.isArray(aud) ? aud : [aud]).every((a) => a === api);
}

/**
 * The organization a token is bound to (an authorization request's `organization`, chosen on the
 * consent page): recorded in the token's `extra` claims when it is issued; null when unbound.
 */
function organizationBindingOf(extra: unknown): string | null {
  const value = (extra as { organization_id?: unknown } | undefined)?.organization_id;
  return typeof value === 'string' ? value : null;
}

/** Only a token requested with resource={base_url}/mcp: never the API's own tokens, never another audience. */
function audienceIsMcp(aud: string | string[] | undefined): boolean {
  const audiences = aud === undefined ? [] : Array.isArray(aud) ? aud : [aud];
  return audiences.length > 0 && audiences.every((a) => a === mcpResource(getConfig().baseUrl));
}

export function resolveAccessToken(token: string, now: Date): Promise<BearerActor | null> {
  return resolveFor(token, now, audienceAllowsApi);
}

export function resolveMcpAccessToken(token: string, now: Date): Promise<BearerActor | null> {
  return resolveFor(token, now, audienceIsMcp);
}

type Provider = Awaited<ReturnType<typeof getProvider>>;
type AccessToken = InstanceType<Provider['AccessToken']>;

/**
 * A token lives only as long as the grant it was issued under, checked as the provider's userinfo and
 * introspection check it: the grant still exists, unexpired, for the same client and account. Revoking
 * a grant deletes its tokens first and the grant last, so a token saved by a request still running at
 * that moment (a racing code redemption) outlives the deletion: only this check ends it.
 */
async function grantStands(provider: Provider, accessToken: AccessToken): Promise<boolean> {
  if (!accessToken.grantId) return false;
  const grant = await provider.Grant.find(accessToken.grantId);
  return grant !== undefined && !grant.isExpired && grant.clientId === accessToken.clientId && grant.accountId === accessToken.accountId;
}

async function resolveFor(token: string, _now: Date, audienceAllowed: (aud: string | string[] | undefined) => boolean): Promise<BearerActor | null> {
  if (token.length > 512) return null;
  const provider = await getProvider();
  const accessToken = await provider.AccessToken.find(token);
  if (!accessToken || !accessToken.isValid || accessToken.isSenderConstrained()) return null;
  if (!audienceAllowed(accessToken.aud as string | string[] | undefined)) return null;
  if (!accessToken.accountId) return null;
  if (!(await grantStands(provider, accessToken))) return null;
  const organizationId = organizationBindingOf(accessToken.extra);
  return {
    kind: 'bearer',
    credential: 'oauth',
    // Principals end up in stored records (idempotency keys): the token's keyed hash, never the token.
    credentialId: storageId('AccessToken', token),
    userId: accessToken.accountId,
    clientId: accessToken.clientId ?? null,
    scopes: canonicalScopes(accessToken.scope),
    organizationId,
    // For the organization's sign-in policies (lib/http/tenant.ts): the sign-in that approved the grant.
    signIn: organizationId ? await grantSignIn(accessToken.grantId!) : null,
    grantId: accessToken.grantId ?? null,
  };
}
