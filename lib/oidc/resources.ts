/**
 * Resource servers (RFC 8707 resource indicators). A token requested without `resource` is the
 * provider's own opaque token for this service's API and userinfo (ARCHITECTURE.md, OAuth). A token
 * requested for one of the resources below carries that resource as its audience and is accepted only
 * there: `{base_url}/mcp` tokens never work on /api/v1 or userinfo. Anything else is `invalid_target`.
 */
import { getConfig } from '@/lib/config';
import { SCOPE_TABLE } from './scopes';

export interface ResourceServer {
  identifier: string;
  /** Scopes a token for this resource may carry (space separated, as oidc-provider wants them). */
  scope: string;
}

/** Every identity.* scope and its alias: what a resource server of ours can be asked for. */
export const RESOURCE_SCOPES = SCOPE_TABLE.filter((s) => s.scope !== 'openid' && s.scope !== 'offline_access').map((s) => s.scope);

export const mcpResource = (baseUrl: string) => `${baseUrl}/mcp`;
/** This service's own API as a resource: the origin itself. */
export const apiResource = (baseUrl: string) => baseUrl;

export function resourceServers(baseUrl = getConfig().baseUrl): ResourceServer[] {
  return [
    { identifier: apiResource(baseUrl), scope: RESOURCE_SCOPES.join(' ') },
    { identifier: mcpResource(baseUrl), scope: RESOURCE_SCOPES.join(' ') },
  ];
}

/** Exact match only: a look-alike (trailing slash, other path, other host) is not our resource. */
export function findResourceServer(identifier: string): ResourceServer | undefined {
  return resourceServers().find((server) => server.identifier === identifier);
}

/**
 * The answer to an authorization request without `scope` (RFC 6749 §3.3 lets the server apply a
 * pre-defined default): the least privilege that makes a token useful. No `openid` (no ID token for a
 * plain OAuth request) and never `offline_access`; the consent screen shows it like any other scope.
 */
export const DEFAULT_SCOPE = 'identity.profile.read';
