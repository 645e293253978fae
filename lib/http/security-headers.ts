/**
 * What browsers are told about our responses (docs/decisions.md, "Browser security headers").
 * Pages get a per-request nonce policy from proxy.ts; everything else gets fixed headers from
 * next.config.ts, which applies them in Next's router before any route runs (so the catch-all
 * fallbacks, OPTIONS answers and Next's own errors carry them too, at no cost to the pipeline).
 *
 * This module imports nothing: next.config.ts loads it outside the app's module graph.
 */

type HeaderMap = Record<string, string>;

/** Every response, pages, API and static files alike. */
export const EVERY_RESPONSE: HeaderMap = {
  // A JSON or text answer is never reinterpreted as script or HTML.
  'X-Content-Type-Options': 'nosniff',
  // Not no-referrer: under it Chromium sends `Origin: null` on same-origin POSTs (forms and fetch),
  // and every browser mutation must carry our exact Origin. Cross-origin requests (the client's
  // redirect URI after consent) learn only our origin, never a path such as /consent/{id}.
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/** JSON answers (the API and discovery documents): nothing may run, load or frame them. */
export const JSON_SURFACE: HeaderMap = { 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'" };

/**
 * Protocol answers under /oauth: node-oidc-provider renders some HTML there (its error page, the
 * form_post auto-submit page) whose scripts and styles are the OAuth area's to police; framing is
 * refused for all of them.
 */
export const PROTOCOL_SURFACE: HeaderMap = { 'Content-Security-Policy': "frame-ancestors 'none'" };

/**
 * Pages whose plain HTML form ends, through redirects, at a client's redirect URI: the consent
 * decision (POST /oauth/authorize -> 303 resume -> 303 redirect_uri), and the OAuth error page, whose
 * Continue posts straight to a form_post client's redirect URI after the person chose to go back. Chromium applies form-action
 * to every redirect after a form submission, so `'self'` alone would block the way back to the
 * application. Registration allows https and loopback http redirect URIs; CSP cannot name the IPv6
 * loopback host ([::1]), hence the schemes.
 */
const REDIRECTING_FORM_PAGES = ['/consent/', '/oauth/error'];
const REDIRECTING_FORM_ACTION = "'self' https: http:";

/** Browser features the pages use: WebAuthn (passkeys), for our own origin only. Everything else is off. */
const PERMISSIONS_POLICY = [
  'publickey-credentials-get=(self)',
  'publickey-credentials-create=(self)',
  ...[
    'accelerometer',
    'autoplay',
    'browsing-topics',
    'camera',
    'clipboard-read',
    'display-capture',
    'encrypted-media',
    'fullscreen',
    'geolocation',
    'gyroscope',
    'hid',
    'identity-credentials-get',
    'idle-detection',
    'local-fonts',
    'magnetometer',
    'microphone',
    'midi',
    'otp-credentials',
    'payment',
    'picture-in-picture',
    'screen-wake-lock',
    'serial',
    'usb',
    'window-management',
    'xr-spatial-tracking',
  ].map((feature) => `${feature}=()`),
].join(', ');

export interface PagePolicy {
  /** Fresh for every response; Next reads it from the request's CSP and puts it on its scripts. */
  nonce: string;
  /** The request path: a few pages need a wider form-action (see REDIRECTING_FORM_PAGES). */
  path: string;
  /** BASE_URL is https: HSTS, and stray http subresource URLs are upgraded. */
  https: boolean;
  /** `next dev` only: React's development build uses eval, and the dev overlay injects styles. */
  development: boolean;
}

export function pageContentSecurityPolicy({ nonce, path, https, development }: PagePolicy): string {
  const formAction = REDIRECTING_FORM_PAGES.some((prefix) => path.startsWith(prefix)) ? REDIRECTING_FORM_ACTION : "'self'";
  const directives = [
    // Same origin for everything not named below (images, fonts, fetch, manifest, frames).
    "default-src 'self'",
    // Only scripts carrying this response's nonce, and what they load ('strict-dynamic'; 'self' is
    // the fallback for browsers without it).
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    // Stylesheets from our origin and inline <style> elements Next marks with the nonce; no inline
    // style attributes. (In development a nonce would disable 'unsafe-inline', so it is left out.)
    `style-src 'self' ${development ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    "object-src 'none'",
    // No <base>: relative URLs always resolve against our own origin.
    "base-uri 'none'",
    `form-action ${formAction}`,
    // Clickjacking: no page of ours renders inside a frame, not even a same-site one.
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}

/** The headers of one page response (besides EVERY_RESPONSE, which next.config.ts adds). */
export function pageSecurityHeaders(policy: PagePolicy): HeaderMap {
  return {
    'Content-Security-Policy': pageContentSecurityPolicy(policy),
    // For browsers older than CSP's frame-ancestors.
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': PERMISSIONS_POLICY,
    // A window that opened ours (or that ours opens) gets no handle on it: no cross-window leaks or
    // navigation of the consent screen. Popup-based sign-in for web clients would need an exception.
    'Cross-Origin-Opener-Policy': 'same-origin',
    // One year; only ever sent when BASE_URL is https (browsers ignore it over http anyway).
    ...(policy.https ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** 128 random bits, base64: unguessable for an attacker who injects markup. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}
