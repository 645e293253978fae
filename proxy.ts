import { NextResponse, type NextRequest } from 'next/server';
import { requestIdFor } from '@/lib/http/request-id';

/**
 * Gives every response an X-Request-ID, including pages, static 404s and Next's own 405/OPTIONS
 * answers. The id is passed to the route as a request header so the pipeline reuses it. Not an auth
 * boundary: all protections live in the pipeline.
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
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
