import { serviceError } from '@/lib/contract/errors';
import { problemResponse } from './problem';
import { requestIdFor } from './request-id';
import { versionHeaders } from './versioning';

async function answer(request: Request): Promise<Response> {
  return problemResponse(serviceError('not_found', 'No operation exists at this path.'), requestIdFor(request.headers), versionHeaders(null));
}

/** Unknown API and protocol paths answer in the API's error format too (not Next's HTML 404). */
export const notFound = { GET: answer, POST: answer, PUT: answer, PATCH: answer, DELETE: answer, OPTIONS: answer };
