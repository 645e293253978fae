/**
 * The wire surfaces of the service and how each answers (ARCHITECTURE.md, pipeline step 14): the API
 * speaks JSON and problem+json; /scim/v2 speaks application/scim+json and the SCIM error schema (RFC
 * 7644 §3.12: `schemas`, `status` as a string, `scimType`, `detail`), for every failure, including
 * authentication, rate limits, the version check and unknown paths. The catalogued error is the same
 * either way; only its wire form differs.
 */
import type { ServiceError } from '@/lib/contract/errors';
import { NOT_JSON, problemBody } from './problem';

export type Surface = 'api' | 'scim';

export const SCIM_PREFIX = '/scim/v2';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_MEDIA_TYPE = 'application/scim+json';

export function surfaceOf(path: string): Surface {
  return path === SCIM_PREFIX || path.startsWith(`${SCIM_PREFIX}/`) ? 'scim' : 'api';
}

/** RFC 7644 §3.12's scimType for a catalogued error: what the domain named, else what the code means. */
function scimTypeOf(error: ServiceError): string | undefined {
  const named = error.extras.scimType;
  if (typeof named === 'string') return named;
  if (error.code === 'invalid_request') return error.detail === NOT_JSON ? 'invalidSyntax' : 'invalidValue';
  if (error.code === 'unsupported_media_type') return 'invalidSyntax';
  // A conflict on a field (a name in use) is what SCIM calls uniqueness.
  if (error.code === 'conflict' && Array.isArray(error.extras.errors)) return 'uniqueness';
  return undefined;
}

/** The field errors parsing found, said in the one `detail` the SCIM error has. */
function scimDetail(error: ServiceError): string {
  const errors = error.extras.errors;
  if (Array.isArray(errors) && errors.length > 0 && !error.extras.scimType) {
    return (errors as { path: string; message: string }[]).map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
  }
  return error.detail ?? error.title;
}

export function scimErrorBody(error: ServiceError): Record<string, unknown> {
  const scimType = scimTypeOf(error);
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(error.status), ...(scimType ? { scimType } : {}), detail: scimDetail(error) };
}

export function errorBody(surface: Surface, error: ServiceError, requestId: string): Record<string, unknown> {
  return surface === 'scim' ? scimErrorBody(error) : problemBody(error, requestId);
}

export function errorMediaType(surface: Surface): string {
  return surface === 'scim' ? SCIM_MEDIA_TYPE : 'application/problem+json';
}

export function successMediaType(surface: Surface): string {
  return surface === 'scim' ? SCIM_MEDIA_TYPE : 'application/json';
}

export function errorResponse(surface: Surface, error: ServiceError, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(errorBody(surface, error, requestId)), {
    status: error.status,
    headers: {
      'Content-Type': errorMediaType(surface),
      'Cache-Control': 'no-store',
      ...headers,
      ...error.headers,
      'X-Request-ID': requestId,
    },
  });
}
