/**
 * Whether an OpenID provider can serve as an organization's identity provider: its discovery document
 * is reachable over bounded HTTPS, names exactly the configured issuer, puts every endpoint on HTTPS,
 * signs ID tokens with RS256, and its JWKS holds an RSA signing key. Answers only a classification
 * (which check failed), never the provider's bodies. Activation and the health preflight both use it.
 */
import { fetchProviderDocument, type FetchFailure } from './provider-fetch';

export interface OidcMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export type ProviderClassification =
  | `discovery_${FetchFailure}`
  | `jwks_${FetchFailure}`
  | 'invalid_metadata'
  | 'issuer_mismatch'
  | 'insecure_endpoint'
  | 'no_rs256_support'
  | 'invalid_jwks'
  | 'no_rs256_key';

export type ProviderCheck = { ok: true; metadata: OidcMetadata } | { ok: false; classification: ProviderClassification };

/** Where discovery lives for an issuer (OpenID Connect Discovery 1.0, section 4: a trailing slash is dropped). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

function parseJson(body: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const isHttpsUrl = (value: unknown) => {
  if (typeof value !== 'string') return false;
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
};

const ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;

/** An RSA key a relying party may verify RS256 signatures with. */
function isRs256Key(key: unknown): boolean {
  if (typeof key !== 'object' || key === null) return false;
  const jwk = key as Record<string, unknown>;
  return jwk.kty === 'RSA' && (jwk.use === undefined || jwk.use === 'sig') && (jwk.alg === undefined || jwk.alg === 'RS256') && typeof jwk.n === 'string';
}

export async function checkOidcProvider(issuer: string): Promise<ProviderCheck> {
  const discovery = await fetchProviderDocument(discoveryUrl(issuer), 'application/json');
  if (!discovery.ok) return { ok: false, classification: `discovery_${discovery.failure}` };
  const metadata = parseJson(discovery.body);
  if (!metadata || ENDPOINTS.some((name) => typeof metadata[name] !== 'string')) return { ok: false, classification: 'invalid_metadata' };
  if (metadata.issuer !== issuer) return { ok: false, classification: 'issuer_mismatch' };
  if (!ENDPOINTS.every((name) => isHttpsUrl(metadata[name]))) return { ok: false, classification: 'insecure_endpoint' };
  const algs = metadata.id_token_signing_alg_values_supported;
  if (!Array.isArray(algs) || !algs.includes('RS256')) return { ok: false, classification: 'no_rs256_support' };
  const jwksDocument = await fetchProviderDocument(metadata.jwks_uri as string, 'application/json');
  if (!jwksDocument.ok) return { ok: false, classification: `jwks_${jwksDocument.failure}` };
  const jwks = parseJson(jwksDocument.body);
  if (!jwks || !Array.isArray(jwks.keys)) return { ok: false, classification: 'invalid_jwks' };
  if (!jwks.keys.some(isRs256Key)) return { ok: false, classification: 'no_rs256_key' };
  return { ok: true, metadata: metadata as unknown as OidcMetadata };
}
