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

/** RFC 9728 protected-resource metadata of one of our resources (the service's API or {base_url}/mcp). */
export function protectedResourceMetadata(resource: (baseUrl: string) => string) {
  const { baseUrl } = getConfig();
  return {
    resource: resource(baseUrl),
    authorization_servers: [baseUrl],
    bearer_methods_supported: ['header'],
    scopes_supported: [...RESOURCE_SCOPES, 'offline_access'],
    resource_documentation: `${baseUrl}/docs`,
  };
}
