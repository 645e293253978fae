/**
 * The front door: what every request meets on Node's HTTP server before Next sees it. Next does not
 * expose its server, so the one hook is `emit('request')` on http.Server, patched once per process:
 *
 * 1. the peer stamp (client-address.ts): rate limits key on the real socket address;
 * 2. the in-flight count and, while draining after SIGTERM, `Connection: close` on every answer, so
 *    kept-alive clients reconnect to another instance (shutdown.ts);
 * 3. the operator endpoints `/metrics` and `/readyz` (operator-endpoints.ts);
 * 4. methods Next cannot route (unrouted-methods.ts);
 * 5. the protocol lane: /oauth and /.well-known operations, routed here (protocol-lane.ts);
 * then Next. The servers seen here are the ones shutdown closes.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isDraining, metrics } from '@/lib/platform';
import { stampPeer } from './client-address';
import { webHeaders, writeResponse } from './node-answer';
import { answerMetrics, answerReadinessProbe } from './operator-endpoints';
import { answerUnrouted, isRoutedMethod } from './unrouted-methods';

type FrontAnswer = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface FrontDoor {
  servers: Set<Server>;
  inFlight: number;
  /** The protocol lane, once opened (until then Next routes those paths, through the same pipeline). */
  lane: ((req: IncomingMessage) => FrontAnswer | null) | null;
}

const state = globalThis as unknown as { __identityFrontDoor?: FrontDoor };

function door(): FrontDoor {
  return (state.__identityFrontDoor ??= { servers: new Set(), inFlight: 0, lane: null });
}

const OPERATOR_ENDPOINTS: Record<string, (headers: Headers) => Promise<Response>> = {
  '/metrics': answerMetrics,
  '/readyz': answerReadinessProbe,
};

/** What answers the request before Next, if anything does. */
function frontAnswer(req: IncomingMessage): FrontAnswer | null {
  const method = req.method ?? 'GET';
  if (!isRoutedMethod(method)) return answerUnrouted;
  const path = (req.url ?? '/').split('?', 1)[0]!;
  const operator = OPERATOR_ENDPOINTS[path];
  if (operator && (method === 'GET' || method === 'HEAD')) return async (request, res) => writeResponse(res, await operator(webHeaders(request)));
  return door().lane?.(req) ?? null;
}

function track(server: Server, res: ServerResponse): void {
  const front = door();
  front.servers.add(server);
  front.inFlight += 1;
  metrics().inFlight.inc();
  res.once('close', () => {
    front.inFlight -= 1;
    metrics().inFlight.dec();
  });
  if (isDraining()) res.setHeader('Connection', 'close');
}

async function answerSafely(answer: FrontAnswer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    await answer(req, res);
  } catch {
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  }
}

export function installFrontDoor(http: typeof import('node:http')): void {
  if (state.__identityFrontDoor) return;
  door();
  const originalEmit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitThroughFrontDoor(this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      stampPeer(req);
      track(this, res);
      const answer = frontAnswer(req);
      if (answer) {
        void answerSafely(answer, req, res);
        return true;
      }
    }
    return Reflect.apply(originalEmit, this, [event, ...args]) as boolean;
  } as typeof originalEmit;
}

/**
 * Opens the protocol lane (it loads the whole registry, so only a serving process does it, after
 * start-up: instrumentation.ts).
 */
export async function openProtocolLane(): Promise<void> {
  door().lane = (await import('./protocol-lane')).protocolLane;
}

/** The servers that have answered requests, and how many requests are being answered now. */
export function frontDoorState(): { servers: ReadonlySet<Server>; inFlight: number } {
  return door();
}
