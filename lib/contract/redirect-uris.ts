/**
 * Which redirect URIs a client may register: HTTPS anywhere, or plain http on a loopback host
 * (RFC 8252 §7.3: any port), never with a fragment (RFC 6749 §3.1.2) nor user info
 * (`http://evil.example@127.0.0.1/cb`: RFC 3986 §3.2.1 deprecates it, and it only serves to make a
 * URI read as another host on the consent page and in logs). Shared by dynamic registration and the
 * developer portal; plain code, so wire contracts (and browser code) can use it.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The rule above in words, for both paths' error messages. */
export const REDIRECT_URI_RULE = 'A redirect URI is HTTPS, or plain http on a loopback address, without a fragment or user info (user@host).';

/** The authority as written (before the parser drops an empty `@`), up to the path, query or fragment. */
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/\\?#]*)/i;

export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes('#')) return false;
  if (url.username || url.password || AUTHORITY.exec(value)?.[1]?.includes('@')) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
