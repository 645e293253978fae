/**
 * The one reading of the Authorization header: HTTP Basic client credentials (below), and
 * `Authorization: Bearer <token>` for every bearer surface of ours (the API's
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

/**
 * HTTP Basic client credentials as the token endpoint decodes them (RFC 6749 §2.3.1: form-urlencoded,
 * then base64): the client id is looked up in the database.
 */
export function basicCredentials(authorization: string | null): Record<string, string> {
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(authorization ?? '');
  if (!match) return {};
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const [id, secret] = colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  const unescape = (value: string) => {
    try {
      return decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      return value;
    }
  };
  return { client_id: unescape(id), client_secret: unescape(secret) };
}
