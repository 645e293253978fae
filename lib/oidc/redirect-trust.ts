/**
 * Which redirect URIs the service sends browsers to without a person (RFC 9700 §4.11.2: an
 * authorization server should redirect automatically only to redirect URIs it trusts).
 *
 * Anyone can register a client at POST /oauth/register with any HTTPS redirect URI, so a dynamically
 * registered client's redirect URI proves nothing: sending browsers there on an error nobody saw
 * (prompt=none, a bad scope, ...) would make the service an open redirector. A client is trusted only
 * when its metadata carries `redirect_uris_trusted: true`, which only trusted registration paths set
 * (the developer portal, for applications with an owner); dynamic registration refuses it. For
 * every other client:
 * - an error at the authorization endpoint is not redirected: the browser goes to our error page,
 *   which names the application and the host and offers to continue there (a person's click);
 * - the person is always asked before a code is issued (the consent screen names the host too), so
 *   a decision on it (allow or deny) is followed by the redirect, as it was seen.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';

export const TRUSTED_REDIRECTS_PROPERTY = 'redirect_uris_trusted';

type CheckClass = typeof import('oidc-provider').interactionPolicy.Check;
type ClientLike = { metadata(): Record<string, unknown> } | undefined;

export function redirectsTrusted(client: ClientLike): boolean {
  return client?.metadata()[TRUSTED_REDIRECTS_PROPERTY] === true;
}

const HELD = Symbol('redirect held for a person');

interface RedirectableError {
  allow_redirect?: boolean;
  [HELD]?: boolean;
}

/** The request's parameters as the provider's error handler reads them (also before they are assembled). */
export function requestParameters(ctx: KoaContextWithOIDC): Record<string, unknown> {
  return (ctx.oidc.params ?? (ctx.method === 'POST' ? ctx.oidc.body : ctx.query) ?? {}) as Record<string, unknown>;
}

/** The person decided on our consent page: the resume carries the interaction's result. */
function personDecided(ctx: KoaContextWithOIDC): boolean {
  const interaction = ctx.oidc.entities.Interaction as { result?: unknown } | undefined;
  return ctx.oidc.route === 'resume' && interaction?.result !== undefined;
}

/**
 * Listener for the provider's `authorization.error` and `server_error` events, which it emits before
 * it chooses between an error redirect and its error page: for an untrusted client it chooses the
 * page (renderError, error-page.ts), marked so the page can offer the way back.
 */
export function holdUntrustedRedirect(ctx: KoaContextWithOIDC, caught: Error): void {
  const error = caught as Error & RedirectableError;
  const route = ctx.oidc?.route;
  if (route !== 'authorization' && route !== 'resume') return;
  // Without a client or a redirect URI the provider shows its error page anyway.
  if (!ctx.oidc.client || typeof requestParameters(ctx).redirect_uri !== 'string' || error.allow_redirect === false) return;
  if (personDecided(ctx) || redirectsTrusted(ctx.oidc.client as ClientLike)) return;
  error.allow_redirect = false;
  error[HELD] = true;
}

export function isHeldRedirect(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as RedirectableError)[HELD] === true;
}

/** A consent-prompt check: untrusted clients never get a code without the person seeing the request. */
export function untrustedClientCheck(Check: CheckClass) {
  return new Check('untrusted_redirect_uri', 'clients with untrusted redirect URIs require End-User interaction', 'interaction_required', (ctx) =>
    redirectsTrusted(ctx.oidc.client as ClientLike) || ctx.oidc.result?.consent ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
  );
}
