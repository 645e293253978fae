import { serviceError } from '@/lib/contract/errors';
import { problemResponse } from './problem';
import { requestIdFor } from './request-id';
import { versionHeaders } from './versioning';

/** The API's answer to a path where no operation exists. */
export function noSuchOperation(headers: Headers): Response {
  return problemResponse(serviceError('not_found', 'No operation exists at this path.'), requestIdFor(headers), versionHeaders(null));
}

/** The API's answer to a method no operation at the path declares. */
export function methodNotAllowed(allow: string, headers: Headers): Response {
  return problemResponse(serviceError('method_not_allowed', `Allowed: ${allow}.`), requestIdFor(headers), { ...versionHeaders(null), Allow: allow });
}

const answer = async (request: Request) => noSuchOperation(request.headers);

/** Unknown API and protocol paths answer in the API's error format too (not Next's HTML 404). */
export const notFound = { GET: answer, POST: answer, PUT: answer, PATCH: answer, DELETE: answer, OPTIONS: answer };
