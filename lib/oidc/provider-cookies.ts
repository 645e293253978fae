/**
 * The provider's cookies (its session, the interaction and the resume binding), held to the same rule
 * as our own session cookie (ASVS V3.3.1): over HTTPS each is a `__Host-` cookie (Secure, Path=/, no
 * Domain: no sibling host can plant or read it), HttpOnly and SameSite=Lax; on plain-http localhost
 * the provider's usual names, which a browser accepts without Secure.
 *
 * oidc-provider scopes the resume cookie to the resume URL (/oauth/authorize/{uid}) and applies that
 * path after the configured options, so no configuration can give it Path=/. `rootPathCookies` sets
 * Path=/ on its Set-Cookie lines instead. Consequence (docs/decisions.md, "Provider cookies"): one
 * resume cookie per browser, so of two authorization requests started in parallel in one browser
 * only the later one can be resumed; the earlier ends on the error page and is started again. A
 * cookie per interaction, sent on every request for the interaction lifetime, would let any site
 * that sends a browser through many authorization requests bloat its headers past server limits.
 */
import type { NodeRequestHandler } from '@/lib/contract/operation';

const SECURE_NAMES = { session: '__Host-oidc_session', interaction: '__Host-oidc_interaction', resume: '__Host-oidc_resume' } as const;
const PLAIN_NAMES = { session: '_session', interaction: '_interaction', resume: '_interaction_resume' } as const;

export function providerCookieNames(secure: boolean) {
  return secure ? SECURE_NAMES : PLAIN_NAMES;
}

/** oidc-provider's `cookies` configuration. `secure` is left to the request: the bridge's protocol is BASE_URL's. */
export function providerCookies(secure: boolean, keys: string[]) {
  const options = { httpOnly: true, sameSite: 'lax' as const, path: '/' };
  return { names: { ...providerCookieNames(secure) }, long: { ...options }, short: { ...options }, keys };
}

const cookieName = (line: string) => line.slice(0, line.indexOf('=')).trim();

/** The Set-Cookie lines of these cookies (and their `.sig` companions) with Path=/, others unchanged. */
export function withRootPath(lines: string[], names: readonly string[]): string[] {
  const wanted = new Set(names.flatMap((name) => [name, `${name}.sig`]));
  return lines.map((line) => (wanted.has(cookieName(line)) ? line.replace(/;\s*path=[^;]*/i, '; path=/') : line));
}

/** Wraps the provider's Node handler so the named cookies are always set (and cleared) at Path=/. */
export function rootPathCookies(handler: NodeRequestHandler, names: readonly string[]): NodeRequestHandler {
  return (req, res) => {
    const setHeader = res.setHeader.bind(res);
    res.setHeader = ((name: string, value: number | string | readonly string[]) => {
      if (name.toLowerCase() !== 'set-cookie' || typeof value === 'number') return setHeader(name, value);
      return setHeader(name, withRootPath(typeof value === 'string' ? [value] : [...value], names));
    }) as typeof res.setHeader;
    return handler(req, res);
  };
}

/**
 * At Path=/ the browser sends the resume cookie to every resume URL, and the provider resumes the
 * interaction the cookie names without comparing it with the URL. The cookie therefore reaches the
 * provider only on the resume URL of its own interaction: elsewhere the request has no resume cookie,
 * and the provider answers as for an expired request, as the path-scoped cookie used to.
 */
export function resumeCookieForUrlOnly(cookieHeader: string | undefined, uid: string, resumeName: string): string | undefined {
  if (!cookieHeader) return cookieHeader;
  const pairs = cookieHeader.split(';').map((pair) => pair.trim());
  const value = pairs.find((pair) => cookieName(pair) === resumeName)?.slice(resumeName.length + 1);
  if (value === undefined || value === uid) return cookieHeader;
  return pairs.filter((pair) => ![resumeName, `${resumeName}.sig`].includes(cookieName(pair))).join('; ');
}
