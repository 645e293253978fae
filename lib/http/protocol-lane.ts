/**
 * The protocol lane: `/oauth/*` and `/.well-known/*` operations answered by the front door, without
 * Next's router in between. The provider is mounted, not a page: Next's per-request routing cost
 * (about as much as the provider's own work on userinfo, bench/oauth.ts) buys nothing here. The lane
 * changes only who routes: the request goes through the same route binding (serve.ts), so the same
 * pipeline (request id, version, body bound, rate limits, Origin, security events, access line) and
 * the same fixed security headers next.config.ts gives these paths. The provider writes its answer to
 * Node's response itself, with those headers filled in as its head goes out (node-bridge.ts): copying
 * it through Web Responses cost about a fifth of userinfo's time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { HttpMethod } from '@/lib/contract/operation';
import { webHeaders, writeResponse } from './node-answer';
import { paramsAt, pathRoutes, type PathRoute } from './route-paths';
import { EVERY_RESPONSE, JSON_SURFACE, PROTOCOL_SURFACE } from './security-headers';
import { serve } from './serve';
import { OPERATIONS } from './registry';

const PREFIXES = { '/oauth/': PROTOCOL_SURFACE, '/.well-known/': JSON_SURFACE } as const;
const LANE_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

interface LaneRoute extends PathRoute {
  handlers: ReturnType<typeof serve>;
  surface: Record<string, string>;
}

let routes: LaneRoute[] | null = null;

function surfaceOf(path: string): Record<string, string> | undefined {
  return Object.entries(PREFIXES).find(([prefix]) => path.startsWith(prefix))?.[1];
}

function laneRoutes(): LaneRoute[] {
  routes ??= pathRoutes(OPERATIONS.map((op) => op.path).filter((path) => surfaceOf(path))).map((route) => ({
    ...route,
    handlers: serve(route.path),
    surface: surfaceOf(route.path)!,
  }));
  return routes;
}

function webRequest(req: IncomingMessage): Request {
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method,
    headers: webHeaders(req),
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/** The lane's answer for this request, or null when Next should route it (pages, unknown paths). */
export function protocolLane(req: IncomingMessage): ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null {
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?', 1)[0]!;
  if (!LANE_METHODS.has(method) || !surfaceOf(path)) return null;
  for (const route of laneRoutes()) {
    const params = paramsAt(route, path);
    if (!params) continue;
    const fixed = { ...EVERY_RESPONSE, ...route.surface };
    return async (request, res) => {
      const handler = route.handlers[method as HttpMethod | 'OPTIONS'];
      const response = await handler(webRequest(request), { params: Promise.resolve(params), answerTo: { res, headers: fixed } });
      // The provider may have written its answer itself (node-bridge.ts): the rest are written here.
      if (!res.headersSent) await writeResponse(res, response, fixed);
    };
  }
  return null;
}
