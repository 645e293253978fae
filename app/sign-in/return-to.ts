export const DEFAULT_RETURN_TO = '/account';

/** `path` carrying a (safe) return_to onwards, so sign-in, sign-up and sign-out keep where the person was headed. */
export function withReturnTo(path: string, returnTo: string): string {
  return returnTo === DEFAULT_RETURN_TO ? path : `${path}?return_to=${encodeURIComponent(returnTo)}`;
}

const PLACEHOLDER_ORIGIN = 'https://return-to.invalid';

/**
 * Where to go after signing in. Only a path on this site is accepted: it must start with a single
 * "/" (so "//host" and "scheme:" are out), and backslashes, whitespace and control characters are
 * refused because browsers rewrite them ("/\host" and "/\t/host" both become "//host"). Anything
 * else falls back to the account page rather than failing the sign-in.
 */
export function safeReturnTo(raw: string | string[] | undefined): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return DEFAULT_RETURN_TO;
  if (!raw.startsWith('/') || raw.startsWith('//')) return DEFAULT_RETURN_TO;
  if (/[\\\s\u0000-\u001f\u007f]/.test(raw)) return DEFAULT_RETURN_TO;
  try {
    // Belt and braces: resolving against a placeholder origin must not leave that origin, and dot
    // segments must not collapse into "//host" ("/..//host" would). The original is returned, not
    // the normalised form, which a later parse could read as a host.
    const url = new URL(raw, PLACEHOLDER_ORIGIN);
    if (url.origin !== PLACEHOLDER_ORIGIN || url.pathname.startsWith('//')) return DEFAULT_RETURN_TO;
    return raw;
  } catch {
    return DEFAULT_RETURN_TO;
  }
}
