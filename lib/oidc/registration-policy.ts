/**
 * Dynamic registration (POST /oauth/register) is for public native clients only (spec: application_type
 * native, token_endpoint_auth_method none, authorization_code + refresh_token, response type code,
 * HTTPS or loopback redirect URIs). Applied through oidc-provider's extraClientMetadata validator,
 * which sees the whole metadata, and only on the registration route: clients the developer portal
 * creates follow their own rules.
 */
import { errors } from 'oidc-provider';
import { TRUSTED_REDIRECTS_PROPERTY } from './redirect-trust';

export const REGISTRATION_POLICY_PROPERTY = 'registration_policy';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const ALLOWED_GRANTS = new Set(['authorization_code', 'refresh_token']);

/** HTTPS anywhere, or plain http on a loopback host (RFC 8252 §7.3: any port). */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

interface RegistrationContext {
  oidc?: { route?: string };
}

export function enforceRegistrationPolicy(ctx: RegistrationContext | undefined, key: string, value: unknown, metadata: Record<string, unknown>): void {
  if (key === TRUSTED_REDIRECTS_PROPERTY) return enforceTrustFlag(ctx, value);
  if (key !== REGISTRATION_POLICY_PROPERTY || ctx?.oidc?.route !== 'registration') return;
  if (metadata.application_type !== 'native') {
    throw new errors.InvalidClientMetadata('application_type must be native');
  }
  if (metadata.token_endpoint_auth_method !== 'none') {
    throw new errors.InvalidClientMetadata('token_endpoint_auth_method must be none (public client with PKCE)');
  }
  const grants = (metadata.grant_types as string[] | undefined) ?? ['authorization_code'];
  if (!grants.every((grant) => ALLOWED_GRANTS.has(grant))) {
    throw new errors.InvalidClientMetadata('grant_types may only contain authorization_code and refresh_token');
  }
  const responseTypes = (metadata.response_types as string[] | undefined) ?? ['code'];
  if (responseTypes.some((type) => type !== 'code')) throw new errors.InvalidClientMetadata('response_types may only contain code');
  const redirects = (metadata.redirect_uris as string[] | undefined) ?? [];
  if (redirects.length === 0 || !redirects.every(isAllowedRedirectUri)) {
    throw new errors.InvalidRedirectUri('redirect_uris must be HTTPS or loopback http URLs without fragments');
  }
  // The marker property itself is never stored.
  delete metadata[REGISTRATION_POLICY_PROPERTY];
}

/** Only trusted registration paths mark a client's redirect URIs as trusted (redirect-trust.ts). */
function enforceTrustFlag(ctx: RegistrationContext | undefined, value: unknown): void {
  if (value === undefined) return;
  if (ctx?.oidc?.route === 'registration') throw new errors.InvalidClientMetadata(`the ${TRUSTED_REDIRECTS_PROPERTY} property is set by the service, never at registration`);
  if (typeof value !== 'boolean') throw new errors.InvalidClientMetadata(`the ${TRUSTED_REDIRECTS_PROPERTY} property must be a boolean`);
}
