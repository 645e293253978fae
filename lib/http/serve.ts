import type { AnyOperation, DelegatedOperation, HttpMethod } from '@/lib/contract/operation';
import { DEFAULT_MAX_BODY_BYTES, readBoundedBody } from './body';
import { callDelegate } from './delegated';
import { runOperation } from './pipeline';
import { methodNotAllowed } from './fallback';
import { requestIdFor } from './request-id';
import { allowedMethods, operationsAt } from './registry';
import { versionHeaders } from './versioning';

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
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
 * Picks among operations sharing a method and path: a variant serves the form requests it selects,
 * the main operation everything else (including bodies too large or not a form, which it refuses).
 */
async function selectOperation(candidates: AnyOperation[], request: Request): Promise<AnyOperation> {
  const main = candidates.find((op) => op.kind !== 'delegated' || !op.variant)!;
  const variants = candidates.filter((op): op is DelegatedOperation => op.kind === 'delegated' && op.variant !== undefined);
  if (variants.length === 0 || !(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return main;
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readBoundedBody(request.clone(), DEFAULT_MAX_BODY_BYTES));
  } catch {
    return main;
  }
  return variants.find((op) => op.variant!.when(form)) ?? main;
}

/**
 * OPTIONS: protocol endpoints answer CORS preflights the provider's way; the API lists its methods.
 * Either way with X-Request-ID (Next's automatic answer would carry none).
 */
async function answerOptions(declared: AnyOperation[], allow: string, request: Request): Promise<Response> {
  const delegated = declared.find((op): op is DelegatedOperation => op.kind === 'delegated');
  const response = delegated
    ? await callDelegate(delegated, request, '')
    : new Response(null, { status: 204, headers: { Allow: `${allow}, OPTIONS` } });
  for (const [name, value] of Object.entries({ ...versionHeaders(null), 'X-Request-ID': requestIdFor(request.headers) })) response.headers.set(name, value);
  return response;
}

function handlerFor(candidates: AnyOperation[], allow: string): RouteHandler {
  if (candidates.length === 0) {
    return async (request) => methodNotAllowed(allow, request.headers);
  }
  const [only] = candidates;
  // Almost every path has one operation per method: no body to peek at.
  if (candidates.length === 1 && only) return async (request, context) => runOperation(only, request, flatten((await context.params) ?? {}));
  return async (request, context) => runOperation(await selectOperation(candidates, request), request, flatten((await context.params) ?? {}));
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
  for (const method of METHODS) handlers[method] = handlerFor(declared.filter((op) => op.method === method), allow);
  return handlers as Record<HttpMethod | 'OPTIONS', RouteHandler>;
}
