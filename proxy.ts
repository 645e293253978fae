import { NextResponse, type NextRequest } from 'next/server';
import { requestIdFor } from '@/lib/http/request-id';

/**
 * Gives pages, static 404s and Next's own answers an X-Request-ID. Not an auth boundary: all
 * protections live in the pipeline. API and protocol paths are left out: their route bindings (and
 * the catch-all fallbacks under /api, /oauth and /.well-known) set the header themselves, and a
 * proxy hop costs about a third of an API request's throughput (measured with bench/pipeline.ts).
 */
export function proxy(request: NextRequest) {
  const requestId = requestIdFor(request.headers);
  const headers = new Headers(request.headers);
  headers.set('x-request-id', requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('X-Request-ID', requestId);
  return response;
}

export const config = {
  // /oauth/error is a page (the OAuth error page), not a protocol path.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|api/|oauth/(?!error$)|\\.well-known/).*)'],
};
