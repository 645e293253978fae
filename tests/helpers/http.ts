import type { AnyOperation, HttpMethod } from '@/lib/contract/operation';
import { serve } from '@/lib/http/serve';
import { runOperation } from '@/lib/http/pipeline';
import { OPERATIONS } from '@/lib/http/registry';

export const ORIGIN = 'http://localhost:3000';

export interface CallOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw body text (sent as is). */
  rawBody?: string;
  params?: Record<string, string>;
  query?: string;
  now?: () => Date;
}

/** The operation at a method and path (the main one where a variant shares them: see `callRoute`). */
export function operation(method: string, path: string): AnyOperation {
  const op = OPERATIONS.find((o) => o.method === method && o.path === path && (o.kind !== 'delegated' || !o.variant));
  if (!op) throw new Error(`No operation ${method} ${path}`);
  return op;
}

/** Path parameters as the router would pass them: the given ones, `x` for the rest. */
function paramsFor(op: AnyOperation, given: Record<string, string>): Record<string, string> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return Object.fromEntries(names.map((name) => [name, given[name] ?? 'x']));
}

function requestFor(op: AnyOperation, params: Record<string, string>, options: CallOptions): Request {
  const url = `${ORIGIN}${op.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name]!)}${options.query ? `?${options.query}` : ''}`;
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  return new Request(url, {
    method: op.method,
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: hasBody ? (options.rawBody ?? JSON.stringify(options.body)) : undefined,
  });
}

/** Runs a request through the real pipeline, in-process (no mocks: real config, real database). */
export async function call(op: AnyOperation, options: CallOptions = {}): Promise<Response> {
  const params = paramsFor(op, options.params ?? {});
  return runOperation(op, requestFor(op, params, options), params, { now: options.now });
}

/** Like `call`, but through the route binding, which picks among operations sharing a method and path. */
export async function callRoute(method: HttpMethod, path: string, options: CallOptions = {}): Promise<Response> {
  const op = operation(method, path);
  const params = paramsFor(op, options.params ?? {});
  return serve(path)[method](requestFor(op, params, options), { params: Promise.resolve(params) });
}

export async function problemOf(response: Response): Promise<{ code: string; status: number; request_id: string; [k: string]: unknown }> {
  if (!response.headers.get('content-type')?.startsWith('application/problem+json')) {
    throw new Error(`Expected a problem document, got ${response.status} ${response.headers.get('content-type')}`);
  }
  return (await response.json()) as { code: string; status: number; request_id: string };
}
