/**
 * Methods Next.js does not route. Next hands only GET, HEAD, OPTIONS, POST, PUT, DELETE and PATCH to
 * route handlers and pages; any other method Node's parser accepts fails inside Next before our code
 * runs: TRACE (and CONNECT, TRACK) cannot become a Fetch Request at all (a 500 in text/plain), others
 * (PROPFIND, QUERY, ...) get an empty 400. Neither route.ts exports nor proxy.ts can see them (the
 * proxy builds the same Request), so the server answers them itself, before Next, exactly as the API
 * answers any undeclared method: 405 problem+json with Allow and X-Request-ID, or 404 on an unknown
 * API path. The front door (front-door.ts) hands them here on Node's HTTP server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnyOperation } from '@/lib/contract/operation';
import { logLine } from '@/lib/platform';
import { methodNotAllowed, noSuchOperation } from './fallback';
import { describeForLog } from './problem';
import { pathRoutes } from './route-paths';

/** next/dist/server/web/http.js HTTP_METHODS. */
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']);
/** Surfaces with catch-all bindings that answer unknown paths with 404 (app/api, app/oauth, app/.well-known, app/scim). */
const OPERATION_PREFIXES = ['/api/', '/oauth/', '/.well-known/', '/scim/'];
/** Pages and static files are served to these only. */
const PAGE_METHODS = 'GET, HEAD';

export interface Route {
  pattern: RegExp;
  allow: string;
}

/** Operation paths as Next routes them (route-paths.ts), each with the methods declared there. */
export function routesOf(operations: readonly AnyOperation[], allowedMethods: (declared: AnyOperation[]) => string): Route[] {
  return pathRoutes(operations.map((op) => op.path)).map(({ path, pattern }) => ({
    pattern,
    allow: allowedMethods(operations.filter((op) => op.path === path)),
  }));
}

export function isRoutedMethod(method: string): boolean {
  return ROUTED_METHODS.has(method);
}

/** The answer for a method Next does not route, at `pathname`. */
export function unroutedAnswer(routes: readonly Route[], pathname: string, headers: Headers): Response {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  const route = routes.find((candidate) => candidate.pattern.test(path));
  if (route) return methodNotAllowed(path, route.allow, headers);
  if (OPERATION_PREFIXES.some((prefix) => `${path}/`.startsWith(prefix))) return noSuchOperation(path, headers);
  return methodNotAllowed(path, PAGE_METHODS, headers);
}

let routes: Route[] | null = null;

/** Answers a method Next does not route (front-door.ts calls it before Next sees the request). */
export async function answerUnrouted(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    if (!routes) {
      // Loaded on first use: start-up does not pay for the whole registry.
      const registry = await import('./registry');
      routes = routesOf(registry.OPERATIONS, registry.allowedMethods);
    }
    const requestId = req.headers['x-request-id'];
    const headers = new Headers(typeof requestId === 'string' ? { 'x-request-id': requestId } : {});
    const response = unroutedAnswer(routes, new URL(req.url ?? '/', 'http://localhost').pathname, headers);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    logLine('error', 'unrouted_method_failed', { error: describeForLog(error) });
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}
