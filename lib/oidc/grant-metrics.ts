import type Provider from 'oidc-provider';
import { metrics } from '@/lib/platform';

/** The grant types we count by name; anything else a client sends is counted as `other` (bounded labels). */
const KNOWN_GRANTS = new Set(['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']);

function grantType(ctx: { oidc?: { params?: Record<string, unknown> } }): string {
  const named = ctx.oidc?.params?.grant_type;
  return typeof named === 'string' && KNOWN_GRANTS.has(named) ? named : 'other';
}

/** Token endpoint outcomes by grant type (identity_oauth_token_grants_total), from the provider's own events. */
export function countTokenGrants(provider: Provider): void {
  provider.on('grant.success', (ctx) => metrics().tokenGrants.inc({ grant_type: grantType(ctx), outcome: 'success' }));
  provider.on('grant.error', (ctx) => metrics().tokenGrants.inc({ grant_type: grantType(ctx), outcome: 'error' }));
}
