import { NextResponse, type NextRequest } from 'next/server';
import { getConfig } from '@/lib/config';
import { requestIdFor } from '@/lib/http/request-id';
import { newNonce, pageSecurityHeaders } from '@/lib/http/security-headers';

/**
 * Runs for pages (and static 404s and Next's own answers): an X-Request-ID, and the page security
 * headers with a fresh CSP nonce. The policy also goes on the request, where Next finds the nonce
 * and puts it on its own scripts. Not an auth boundary: all protections live in the pipeline.
 *
 * API and protocol paths are left out: their route bindings (and the catch-all fallbacks under /api,
 * /oauth and /.well-known) set the request id themselves, next.config.ts gives them their fixed
 * security headers, and a proxy hop costs about a third of an API request's throughput (measured
 * with bench/pipeline.ts).
 */
export function proxy(request: NextRequest) {
  const requestId = requestIdFor(request.headers);
  const security = pageSecurityHeaders({
    nonce: newNonce(),
    path: request.nextUrl.pathname,
    https: new URL(getConfig().baseUrl).protocol === 'https:',
    // eslint-disable-next-line no-restricted-properties -- Next's own build mode (`next dev`), not configuration
    development: process.env.NODE_ENV === 'development',
  });
  const headers = new Headers(request.headers);
  headers.set('x-request-id', requestId);
  headers.set('content-security-policy', security['Content-Security-Policy']!);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('X-Request-ID', requestId);
  for (const [name, value] of Object.entries(security)) response.headers.set(name, value);
  return response;
}

export const config = {
  // /oauth/error is a page (the OAuth error page), not a protocol path.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|api/|oauth/(?!error$)|\\.well-known/).*)'],
};
