import type { AnyOperation, DelegatedOperation, HttpMethod } from '@/lib/contract/operation';
import { DEFAULT_MAX_BODY_BYTES } from './body';
import { callDelegate } from './delegated';
import { runOperation } from './pipeline';
import { methodNotAllowed } from './fallback';
import type { NodeAnswerTarget } from './node-bridge';
import { requestIdFor } from './request-id';
import { allowedMethods, operationsAt } from './registry';
import { versionHeaders } from './versioning';

type RouteContext = {
  params: Promise<Record<string, string | string[] | undefined>>;
  /** Given by the protocol lane only (Next passes params alone): see PipelineOptions. */
  answerTo?: NodeAnswerTarget;
};
type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function flatten(params: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === 'string') flat[key] = value;
    else if (Array.isArray(value)) flat[key] = value.join('/');
  }
  return flat;
}

/**
 * Reads the body up to `limit` bytes to look at it, and gives back a request that replays the same
 * bytes (what was read, then the rest of the stream). Not `request.clone()`: a tee'd body whose peeking
 * branch is cancelled part-way (an oversized body) could stall the branch the pipeline then reads.
 */
async function peekBody(request: Request, limit: number): Promise<{ text: string | null; request: Request }> {
  if (!request.body) return { text: '', request };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  while (size <= limit) {
    const next = await reader.read();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    size += next.value.byteLength;
  }
  const replay = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (ended) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const replayed = new Request(request.url, { method: request.method, headers: request.headers, body: replay, duplex: 'half' } as RequestInit);
  return { text: ended && size <= limit ? Buffer.concat(chunks).toString('utf8') : null, request: replayed };
}

/**
 * Picks among operations sharing a method and path: a variant serves the form requests it selects,
 * the main operation everything else (including bodies too large or not a form, which it refuses).
 */
async function selectOperation(candidates: AnyOperation[], request: Request): Promise<{ op: AnyOperation; request: Request }> {
  const main = candidates.find((op) => op.kind !== 'delegated' || !op.variant)!;
  const variants = candidates.filter((op): op is DelegatedOperation => op.kind === 'delegated' && op.variant !== undefined);
  if (variants.length === 0 || !(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded'))
    return { op: main, request };
  const peeked = await peekBody(request, DEFAULT_MAX_BODY_BYTES);
  if (peeked.text === null) return { op: main, request: peeked.request };
  const form = new URLSearchParams(peeked.text);
  return { op: variants.find((op) => op.variant!.when(form)) ?? main, request: peeked.request };
}

/**
 * OPTIONS: protocol endpoints answer CORS preflights the provider's way; the API lists its methods.
 * Either way with X-Request-ID (Next's automatic answer would carry none).
 */
async function answerOptions(declared: AnyOperation[], allow: string, request: Request): Promise<Response> {
  const delegated = declared.find((op): op is DelegatedOperation => op.kind === 'delegated');
  const response = delegated ? await callDelegate(delegated, request, '') : new Response(null, { status: 204, headers: { Allow: `${allow}, OPTIONS` } });
  for (const [name, value] of Object.entries({ ...versionHeaders(null), 'X-Request-ID': requestIdFor(request.headers) })) response.headers.set(name, value);
  return response;
}

function handlerFor(path: string, candidates: AnyOperation[], allow: string): RouteHandler {
  if (candidates.length === 0) {
    return async (request) => methodNotAllowed(path, allow, request.headers);
  }
  const [only] = candidates;
  // Almost every path has one operation per method: no body to peek at.
  if (candidates.length === 1 && only)
    return async (request, context) => runOperation(only, request, flatten((await context.params) ?? {}), { answerTo: context.answerTo });
  return async (request, context) => {
    const selected = await selectOperation(candidates, request);
    return runOperation(selected.op, selected.request, flatten((await context.params) ?? {}), { answerTo: context.answerTo });
  };
}

/**
 * Binds a route.ts file to the operations declared for `path`:
 * `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve('/api/health');`
 * Methods without an operation answer 405 in the API's error format (with X-Request-ID).
 */
export function serve(path: string): Record<HttpMethod | 'OPTIONS', RouteHandler> {
  const declared = operationsAt(path);
  if (declared.length === 0) throw new Error(`No operation is declared for ${path}`);
  const allow = allowedMethods(declared);
  const handlers: Partial<Record<HttpMethod | 'OPTIONS', RouteHandler>> = { OPTIONS: (request) => answerOptions(declared, allow, request) };
  for (const method of METHODS)
    handlers[method] = handlerFor(
      path,
      declared.filter((op) => op.method === method),
      allow,
    );
  return handlers as Record<HttpMethod | 'OPTIONS', RouteHandler>;
}
