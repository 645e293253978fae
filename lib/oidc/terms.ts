/**
 * Limits and defaults of the provider that its wire contracts (oidc.contract.ts) state and its
 * services apply: plain values, so browser code may import them with the contracts.
 */

/**
 * The answer to an authorization request without `scope` (RFC 6749 §3.3 lets the server apply a
 * pre-defined default): the least privilege that makes a token useful. No `openid` (no ID token for a
 * plain OAuth request) and never `offline_access`; the consent screen shows it like any other scope.
 */
export const DEFAULT_SCOPE = 'identity.profile.read';

/** The organization chooser lists at most this many organizations (a person's own active memberships). */
export const CHOOSER_LIMIT = 100;

/** Sealed authorization returns longer than this are refused by the error page's operation (URLs stay well below 8 KiB). */
export const MAX_RETURN_LENGTH = 6000;
