/**
 * Which redirect URIs a client may register: HTTPS anywhere, or plain http on a loopback host
 * (RFC 8252 §7.3: any port), never with a fragment (RFC 6749 §3.1.2). Shared by dynamic registration
 * and the developer portal; free of oidc-provider imports, so route declarations can use it.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes('#')) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
