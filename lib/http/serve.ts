import type { HttpMethod } from '@/lib/contract/operation';
import { serviceError } from '@/lib/contract/errors';
import { runOperation } from './pipeline';
import { problemResponse } from './problem';
import { requestIdFor } from './request-id';
import { operationsAt } from './registry';
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
 * Binds a route.ts file to the operations declared for `path`:
 * `export const { GET, POST, PUT, PATCH, DELETE } = serve('/api/health');`
 * Methods without an operation answer 405 in the API's error format (with X-Request-ID).
 */
export function serve(path: string): Record<HttpMethod, RouteHandler> {
  const declared = operationsAt(path);
  if (declared.length === 0) throw new Error(`No operation is declared for ${path}`);
  const allow = declared.map((op) => op.method).join(', ');
  const handlers = {} as Record<HttpMethod, RouteHandler>;
  for (const method of METHODS) {
    const op = declared.find((candidate) => candidate.method === method);
    handlers[method] = op
      ? async (request, context) => runOperation(op, request, flatten((await context.params) ?? {}))
      : async (request) =>
          problemResponse(serviceError('method_not_allowed', `Allowed: ${allow}.`), requestIdFor(request.headers), {
            ...versionHeaders(null),
            Allow: allow,
          });
  }
  return handlers;
}
