/**
 * node-oidc-provider's `renderError`: instead of its default page (unstyled, a stylesheet from a
 * third-party font host, the raw error fields), the browser is sent with a 303 to our own page,
 * /oauth/error, in the site's layout. Only safe values travel in its URL: the error code, a reason
 * from a fixed list, the request id (the one in X-Request-ID and in our logs) and, when an untrusted
 * client's redirect was held back (redirect-trust.ts), the sealed way back (authorization-returns.ts). Never the description,
 * state or redirect URI, which the request's sender chose.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import { sealAuthorizationReturn } from './authorization-returns';
import { MAX_RETURN_LENGTH } from './terms';
import { isHeldRedirect } from './redirect-trust';

export const ERROR_PAGE = '/oauth/error';

const ERROR_CODE = /^[a-z0-9_]{1,64}$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Errors the page explains better than their OAuth code does. */
function reasonOf(error: unknown): string | null {
  return (error as { name?: string } | null)?.name === 'SessionNotFound' ? 'expired' : null;
}

export async function renderError(ctx: KoaContextWithOIDC, out: Record<string, unknown>, error: Error): Promise<void> {
  const query = new URLSearchParams({ error: typeof out.error === 'string' && ERROR_CODE.test(out.error) ? out.error : 'server_error' });
  const reason = reasonOf(error);
  if (reason) query.set('reason', reason);
  const requestId = ctx.get('x-request-id');
  if (REQUEST_ID.test(requestId)) query.set('request_id', requestId);
  if (isHeldRedirect(error)) {
    const sealed = sealAuthorizationReturn(ctx, out, new Date());
    // An absurdly long request (state, redirect URI) gets the page without a way back, not a URL too long to serve.
    if (sealed.length <= MAX_RETURN_LENGTH) query.set('return', sealed);
  }
  ctx.redirect(`${ERROR_PAGE}?${query}`);
  ctx.status = 303;
}
