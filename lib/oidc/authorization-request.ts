/**
 * Validation of raw authorization parameters for GET /oauth/authorize/context, with the rules the
 * authorization endpoint applies: a registered client, its exact redirect URI (a native client's
 * loopback port may vary, RFC 8252 §7.3), response type code, PKCE S256, known scopes within the
 * client's ceiling (scope-ceiling.ts) and a resource of ours or a developer's API (with its permissions). A consent screen can thus refuse a request before rendering anything.
 * The query's shape is the operation's contract (oidc.contract.ts: authorizationContextQuery).
 */
import { getConfig } from '@/lib/config';
import { serviceError, type FieldError } from '@/lib/contract/errors';
import { getProvider } from './provider';
import { findApiResourceServer } from './api-resource-servers';
import { findResourceServer } from './resources';
import { organizationParameterViolation } from './organization-binding';
import { ceilingViolation } from './scope-ceiling';
import { SCOPE_TABLE } from './scopes';
import { DEFAULT_SCOPE } from './terms';

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  resource?: string;
}

function refuse(errors: FieldError[]): never {
  throw serviceError('invalid_request', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { extras: { errors } });
}

export async function validateAuthorizationRequest(query: Record<string, string | undefined>) {
  const provider = await getProvider();
  const client = await provider.Client.find(query.client_id ?? '');
  if (!client) refuse([{ path: 'query.client_id', message: 'No application is registered with this client_id' }]);
  const errors: FieldError[] = [];
  if (!client.redirectUriAllowed(query.redirect_uri ?? ''))
    errors.push({ path: 'query.redirect_uri', message: 'Not a redirect URI registered for this client' });
  const scope = query.scope?.trim() || DEFAULT_SCOPE;
  // A developer's API adds its own permissions to what may be asked for (api-resource-servers.ts).
  const ours = query.resource !== undefined && findResourceServer(query.resource) !== undefined;
  const api = query.resource !== undefined && !ours ? await findApiResourceServer(query.resource) : null;
  const known = (s: string) => SCOPE_TABLE.some((d) => d.scope === s) || (api?.permissions.some((p) => p.name === s) ?? false);
  const unknown = scope.split(' ').filter((s) => s && !known(s));
  if (unknown.length) errors.push({ path: 'query.scope', message: `Unknown scope: ${unknown.join(' ')}` });
  const beyondCeiling = ceilingViolation(client, scope, query.resource, getConfig().baseUrl);
  if (beyondCeiling) errors.push({ path: 'query.scope', message: beyondCeiling });
  if (query.resource !== undefined && !ours && !api) errors.push({ path: 'query.resource', message: 'Not a resource of this service' });
  const organization = organizationParameterViolation(query.organization, scope);
  if (organization) errors.push({ path: 'query.organization', message: organization });
  if (errors.length) refuse(errors);
  const request: AuthorizationRequest = { clientId: client.clientId, redirectUri: query.redirect_uri!, scope, resource: query.resource };
  return { client, request, api };
}
