/**
 * SCIM endpoint names in any case (`/scim/v2/users` as Microsoft's validator sends it, `/Users` as the
 * RFC writes it): the router matches paths exactly, so the SCIM catch-all resolves a path the
 * declared ones match regardless of case, and serves it as that operation. Anything else is the SCIM
 * surface's 404.
 */
import type { HttpMethod } from '@/lib/contract/operation';
import { noSuchOperation } from './fallback';
import { OPERATIONS } from './registry';
import { serve } from './serve';
import { SCIM_PREFIX, surfaceOf } from './surfaces';

const SCIM_PATHS = [...new Set(OPERATIONS.filter((op) => surfaceOf(op.path) === 'scim').map((op) => op.path))];

/** The declared path matching `pathname` with literal segments compared regardless of case, and its parameters. */
function resolve(pathname: string): { path: string; params: Record<string, string> } | null {
  const segments = pathname.replace(/\/$/, '').split('/');
  for (const path of SCIM_PATHS) {
    const declared = path.split('/');
    if (declared.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = declared.every((part, index) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name) return (params[name] = decodeURIComponent(segments[index]!)) !== '';
      return part.toLowerCase() === segments[index]!.toLowerCase();
    });
    if (matches) return { path, params };
  }
  return null;
}

function answer(method: HttpMethod | 'OPTIONS') {
  return async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const found = pathname.startsWith(`${SCIM_PREFIX}/`) ? resolve(pathname) : null;
    if (!found) return noSuchOperation(pathname, request.headers);
    return serve(found.path)[method](request, { params: Promise.resolve(found.params) });
  };
}

export const scimCatchAll = {
  GET: answer('GET'),
  POST: answer('POST'),
  PUT: answer('PUT'),
  PATCH: answer('PATCH'),
  DELETE: answer('DELETE'),
  OPTIONS: answer('OPTIONS'),
};
