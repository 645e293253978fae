/**
 * The one reading of `Authorization: Bearer <token>` for every bearer surface of ours (the API's
 * bearer terms in lib/http, /mcp in lib/mcp; userinfo is read by the provider, with the same rule).
 * RFC 9110 §11.1: an authentication scheme is case-insensitive, so `bearer` and `BEARER` are
 * `Bearer`. One space separates the scheme from the token (the provider accepts exactly one, and
 * every surface answers alike).
 */
const BEARER = /^bearer ([A-Za-z0-9._~+/=-]+)$/i;

/** The bearer token an Authorization header carries, or null when it carries none (or another scheme). */
export function bearerToken(authorization: string | null): string | null {
  return BEARER.exec(authorization ?? '')?.[1] ?? null;
}
