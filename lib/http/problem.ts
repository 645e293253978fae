import { ServiceError, serviceError } from '@/lib/contract/errors';

/** RFC 9457 problem document, plus our stable `code` and the `request_id` for support. */
export function problemBody(error: ServiceError, requestId: string): Record<string, unknown> {
  return {
    type: `about:blank#${error.code}`,
    title: error.title,
    status: error.status,
    ...(error.detail ? { detail: error.detail } : {}),
    code: error.code,
    request_id: requestId,
    ...error.extras,
  };
}

export function problemResponse(error: ServiceError, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problemBody(error, requestId)), {
    status: error.status,
    headers: {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      ...headers,
      ...error.headers,
      'X-Request-ID': requestId,
    },
  });
}

/** Anything that is not a catalogued error is a bug: log it with the request id, say nothing more. */
export function toServiceError(error: unknown, requestId: string): ServiceError {
  if (error instanceof ServiceError) return error;
  console.error(`[request ${requestId}] unhandled error`, error);
  return serviceError('internal_error');
}
