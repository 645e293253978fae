/**
 * Catalogued service errors. Domain code throws these; the edge (lib/http) turns them into the
 * surface's wire format (problem+json for the API). Codes are stable and documented in docs/errors.md.
 */
export interface FieldError {
  path: string;
  message: string;
}

export class ServiceError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    public readonly title: string,
    public readonly detail?: string,
    /** Extra members of the problem document (e.g. `step_up`). Never secrets. */
    public readonly extras: Record<string, unknown> = {},
    /** Response headers that belong to the error (Retry-After, WWW-Authenticate, Allow). */
    public readonly headers: Record<string, string> = {},
    /**
     * Why, for the service's own counts only (e.g. `locked` behind the generic sign-in failure). Never
     * part of the answer: the caller must not learn what the generic failure hides.
     */
    public readonly reason?: string,
  ) {
    super(detail ?? title);
    this.name = 'ServiceError';
  }
}

export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, title: 'The request is invalid' },
  invalid_pagination: { status: 400, title: 'The pagination cursor or limit is invalid' },
  invalid_code: { status: 400, title: 'The code is wrong or has expired' },
  weak_password: { status: 400, title: 'The password is not acceptable' },
  unsupported_api_version: { status: 400, title: 'The requested API version is not supported' },
  idempotency_key_required: { status: 400, title: 'An Idempotency-Key header is required' },
  unauthenticated: { status: 401, title: 'Authentication is required' },
  invalid_credentials: { status: 401, title: 'The sign-in details are not correct' },
  reauthentication_required: { status: 401, title: 'A fresh sign-in is required' },
  forbidden: { status: 403, title: 'The credential does not allow this operation' },
  insufficient_scope: { status: 403, title: 'The credential lacks a required scope' },
  step_up_required: { status: 403, title: 'A recent re-authentication is required' },
  approval_required: { status: 403, title: 'This change needs an approved request' },
  origin_mismatch: { status: 403, title: 'The request origin is not allowed' },
  csrf_failed: { status: 403, title: 'The CSRF proof is missing or wrong' },
  not_found: { status: 404, title: 'The resource does not exist' },
  method_not_allowed: { status: 405, title: 'The method is not allowed on this resource' },
  conflict: { status: 409, title: 'The request conflicts with the current state' },
  idempotency_request_in_flight: { status: 409, title: 'A request with this Idempotency-Key is still being processed' },
  precondition_failed: { status: 412, title: 'The resource changed since the version the request names' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unsupported_media_type: { status: 415, title: 'The request body must be JSON' },
  idempotency_key_reused: { status: 422, title: 'The Idempotency-Key was used with a different request' },
  domain_verification_failed: { status: 422, title: 'The DNS record proving the domain was not found' },
  federation_validation_failed: { status: 422, title: "The identity provider's configuration did not pass validation" },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'The service failed to handle the request' },
  upstream_failed: { status: 502, title: 'An upstream provider failed' },
  service_unavailable: { status: 503, title: 'The service is temporarily unavailable' },
  upstream_timeout: { status: 504, title: 'An upstream provider timed out' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function serviceError(
  code: ErrorCode,
  detail?: string,
  options: { extras?: Record<string, unknown>; headers?: Record<string, string>; reason?: string } = {},
): ServiceError {
  const entry = ERROR_CATALOGUE[code];
  return new ServiceError(entry.status, code, entry.title, detail, options.extras, options.headers, options.reason);
}

/**
 * A field the schemas accept but the service refuses (a check that needs server code, e.g. compiling
 * a JSON Schema): the same 400 with field errors that parsing answers.
 */
export function invalidField(path: string, message: string): ServiceError {
  return serviceError('invalid_request', `${path}: ${message}`, { extras: { errors: [{ path, message }] } });
}
