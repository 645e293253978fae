/**
 * The relying party towards an organization's OpenID provider: openid-client (a certified RP library;
 * no hand-rolled JOSE), every request through the outbound guard. openid-client checks the ID token's
 * RS256 signature against the provider's JWKS, issuer, audience (and azp), nonce, expiry and issued-at;
 * PKCE and state are checked on the authorization response.
 */
import { openSecret } from '@/lib/platform';
import type { ConnectionRow } from '../connections/connections.repo';
import { guardedFetch, PROVIDER_TIMEOUT_MS } from './provider-fetch';

export const CLIENT_SECRET_PURPOSE = 'federation-client-secret';
/** Clock skew tolerated on `exp`, `iat` and `nbf` (docs/decisions.md, "Federated sign-in"). */
export const CLOCK_TOLERANCE_SECONDS = 30;

type OpenidClient = typeof import('openid-client');
/** openid-client is ESM only: loaded once, when the first federated sign-in needs it. */
let library: Promise<OpenidClient> | null = null;
export const openidClient = () => (library ??= import('openid-client'));

/** The provider's configuration, discovered afresh (bounded HTTPS through the guard). */
export async function providerConfiguration(connection: ConnectionRow) {
  const oc = await openidClient();
  const secret = openSecret(connection.clientSecretSealed!, CLIENT_SECRET_PURPOSE);
  const config = await oc.discovery(
    new URL(connection.issuer!),
    connection.clientId!,
    { client_secret: secret, id_token_signed_response_alg: 'RS256', [oc.clockTolerance]: CLOCK_TOLERANCE_SECONDS },
    oc.ClientSecretPost(secret),
    { [oc.customFetch]: guardedFetch, timeout: PROVIDER_TIMEOUT_MS / 1000 },
  );
  config[oc.customFetch] = guardedFetch;
  config.timeout = PROVIDER_TIMEOUT_MS / 1000;
  return config;
}

export type TokenRefusal = 'invalid_signature' | 'wrong_issuer' | 'wrong_audience' | 'wrong_nonce' | 'expired_token' | 'token_exchange_failed';

/** What an openid-client failure of the code exchange means, as a safe classification. */
export function classifyTokenFailure(error: unknown): TokenRefusal {
  const { code, cause, message } = error as { code?: string; cause?: { claim?: string }; message?: string };
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    if (cause?.claim === 'iss') return 'wrong_issuer';
    if (cause?.claim === 'aud' || cause?.claim === 'azp') return 'wrong_audience';
    if (cause?.claim === 'nonce') return 'wrong_nonce';
  }
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') return 'expired_token';
  if (code === 'OAUTH_KEY_SELECTION_FAILED') return 'invalid_signature';
  if (code === 'OAUTH_INVALID_RESPONSE' && /signature|"alg"/.test(message ?? '')) return 'invalid_signature';
  return 'token_exchange_failed';
}
