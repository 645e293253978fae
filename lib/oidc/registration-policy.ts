/**
 * Dynamic registration (POST /oauth/register) is for public native clients only (spec: application_type
 * native, token_endpoint_auth_method none, authorization_code + refresh_token, response type code,
 * HTTPS or loopback redirect URIs). Applied through oidc-provider's extraClientMetadata validator,
 * which sees the whole metadata, and only on the registration route: clients the developer portal
 * creates follow their own rules.
 */
import { errors } from 'oidc-provider';
import { displayName } from '@/lib/contract/text';
import { isAllowedRedirectUri, REDIRECT_URI_RULE } from '@/lib/contract/redirect-uris';
import { TRUSTED_REDIRECTS_PROPERTY } from './redirect-trust';
import { SELF_REGISTERED_PROPERTY, SELF_REGISTRATION_SCOPES } from './scope-ceiling';

export { isAllowedRedirectUri };

export const REGISTRATION_POLICY_PROPERTY = 'registration_policy';

const ALLOWED_GRANTS = new Set(['authorization_code', 'refresh_token']);

/**
 * Metadata that makes the provider fetch a URL the registrant chose, from our network and outside
 * the outbound guard (lib/platform): sector_identifier_uri is fetched at registration itself, and
 * jwks_uri whenever client keys are needed. We use no pairwise subjects and a public native client
 * has no keys, so both are refused (the provider's `fetch` refuses every request anyway: provider.ts).
 * request_uris and the backchannel URIs belong to features that are off, so the provider drops them;
 * logo_uri, client_uri, policy_uri and tos_uri are never fetched or shown.
 */
const FETCHED_METADATA = ['sector_identifier_uri', 'jwks_uri'] as const;

interface RegistrationContext {
  oidc?: { route?: string };
}

export function enforceRegistrationPolicy(ctx: RegistrationContext | undefined, key: string, value: unknown, metadata: Record<string, unknown>): void {
  if (key === TRUSTED_REDIRECTS_PROPERTY || key === SELF_REGISTERED_PROPERTY) return enforceServiceFlag(ctx, key, value);
  if (key !== REGISTRATION_POLICY_PROPERTY || ctx?.oidc?.route !== 'registration') return;
  const fetched = FETCHED_METADATA.find((name) => metadata[name] !== undefined);
  if (fetched) throw new errors.InvalidClientMetadata(`${fetched} is not supported: the service fetches no URL a registrant names`);
  if (metadata.application_type !== 'native') {
    throw new errors.InvalidClientMetadata('application_type must be native');
  }
  if (metadata.token_endpoint_auth_method !== 'none') {
    throw new errors.InvalidClientMetadata('token_endpoint_auth_method must be none (public client with PKCE)');
  }
  const grants = stringList(metadata.grant_types, ['authorization_code']);
  if (!grants?.every((grant) => ALLOWED_GRANTS.has(grant))) {
    throw new errors.InvalidClientMetadata('grant_types may only contain authorization_code and refresh_token');
  }
  const responseTypes = stringList(metadata.response_types, ['code']);
  if (!responseTypes?.every((type) => type === 'code')) throw new errors.InvalidClientMetadata('response_types may only contain code');
  const redirects = stringList(metadata.redirect_uris, []);
  if (!redirects?.length || !redirects.every(isAllowedRedirectUri)) {
    // The error's own description speaks of authorization requests: say what the rule is instead.
    throw Object.assign(new errors.InvalidRedirectUri(), { error_description: `redirect_uris: ${REDIRECT_URI_RULE}` });
  }
  metadata.scope = ceilingScope(metadata.scope);
  if (metadata.client_name !== undefined) metadata.client_name = clientName(metadata.client_name);
  // Runs after the marker's own check (its property comes first), which refused it from the registrant.
  metadata[SELF_REGISTERED_PROPERTY] = true;
  // The marker property itself is never stored.
  delete metadata[REGISTRATION_POLICY_PROPERTY];
}

/** A list of the metadata as sent: absent gives the default; anything but an array of strings gives null (refused). */
function stringList(value: unknown, absent: string[]): string[] | null {
  if (value === undefined) return absent;
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : null;
}

/** The name the consent page shows: the one text rule for names (anyone may register a client). */
function clientName(value: unknown): string {
  const parsed = displayName.safeParse(value);
  if (!parsed.success) throw new errors.InvalidClientMetadata(`client_name: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/** A registrant may narrow its scope within the ceiling (scope-ceiling.ts); without one it gets the ceiling. */
function ceilingScope(requested: unknown): string {
  if (requested === undefined) return SELF_REGISTRATION_SCOPES.join(' ');
  const scopes = typeof requested === 'string' ? requested.split(' ').filter(Boolean) : [];
  if (scopes.length === 0 || !scopes.every((scope) => SELF_REGISTRATION_SCOPES.includes(scope))) {
    throw new errors.InvalidClientMetadata(`scope may only contain ${SELF_REGISTRATION_SCOPES.join(' ')}`);
  }
  return scopes.join(' ');
}

/**
 * Properties only the service sets: trusted redirect URIs (redirect-trust.ts, trusted registration
 * paths only) and the self-registration marker (scope-ceiling.ts, set by the policy above).
 */
function enforceServiceFlag(ctx: RegistrationContext | undefined, key: string, value: unknown): void {
  if (value === undefined) return;
  if (ctx?.oidc?.route === 'registration') throw new errors.InvalidClientMetadata(`the ${key} property is set by the service, never at registration`);
  if (typeof value !== 'boolean') throw new errors.InvalidClientMetadata(`the ${key} property must be a boolean`);
}
