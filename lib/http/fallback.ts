import { serviceError } from '@/lib/contract/errors';
import { requestIdFor } from './request-id';
import { errorResponse, surfaceOf } from './surfaces';
import { versionHeaders } from './versioning';

/** The answer to a path where no operation exists, in the error format of the surface it is under. */
export function noSuchOperation(path: string, headers: Headers): Response {
  return errorResponse(surfaceOf(path), serviceError('not_found', 'No operation exists at this path.'), requestIdFor(headers), versionHeaders(null));
}

/** The answer to a method no operation at the path declares. */
export function methodNotAllowed(path: string, allow: string, headers: Headers): Response {
  const error = serviceError('method_not_allowed', `Allowed: ${allow}.`);
  return errorResponse(surfaceOf(path), error, requestIdFor(headers), { ...versionHeaders(null), Allow: allow });
}

const answer = async (request: Request) => noSuchOperation(new URL(request.url).pathname, request.headers);

/** Unknown API, SCIM and protocol paths answer in their surface's error format too (not Next's HTML 404). */
export const notFound = { GET: answer, POST: answer, PUT: answer, PATCH: answer, DELETE: answer, OPTIONS: answer };
