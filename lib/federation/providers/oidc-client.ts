/**
 * The relying party towards an organization's OpenID provider: openid-client (a certified RP library;
 * no hand-rolled JOSE), every request through the outbound guard. openid-client checks the ID token's
 * RS256 signature against the provider's JWKS (with its non-repudiation checks on), issuer, audience
 * (and azp), nonce, expiry and issued-at; PKCE and state are checked on the authorization response.
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
    // openid-client skips the ID token's signature when it came straight from the token endpoint over
    // TLS (OIDC Core 3.1.3.7 allows it); we check it anyway: the non-repudiation checks verify it
    // against the provider's JWKS.
    { [oc.customFetch]: guardedFetch, timeout: PROVIDER_TIMEOUT_MS / 1000, execute: [oc.enableNonRepudiationChecks] },
  );
  config[oc.customFetch] = guardedFetch;
  config.timeout = PROVIDER_TIMEOUT_MS / 1000;
  return config;
}

export type TokenRefusal = 'invalid_signature' | 'wrong_issuer' | 'wrong_audience' | 'wrong_nonce' | 'expired_token' | 'token_exchange_failed';

/** The errors of a failure, outermost first (openid-client wraps oauth4webapi's: the detail is inside). */
function causes(error: unknown): { claim?: unknown; message?: string }[] {
  const chain: { claim?: unknown; message?: string; cause?: unknown }[] = [];
  for (let current = error as (typeof chain)[number] | undefined; current && chain.length < 4; current = current.cause as typeof current) chain.push(current);
  return chain;
}

/** What an openid-client failure of the code exchange means, as a safe classification. */
export function classifyTokenFailure(error: unknown): TokenRefusal {
  const code = (error as { code?: string }).code;
  const chain = causes(error);
  const claim = chain.map((e) => e.claim).find((c) => typeof c === 'string');
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    if (claim === 'iss') return 'wrong_issuer';
    if (claim === 'aud' || claim === 'azp') return 'wrong_audience';
    if (claim === 'nonce') return 'wrong_nonce';
  }
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') return 'expired_token';
  if (code === 'OAUTH_KEY_SELECTION_FAILED') return 'invalid_signature';
  if (code === 'OAUTH_INVALID_RESPONSE' && chain.some((e) => /signature|"alg"/.test(e.message ?? ''))) return 'invalid_signature';
  return 'token_exchange_failed';
}
