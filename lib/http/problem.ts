import { ServiceError, serviceError } from '@/lib/contract/errors';
import { isDatabaseUnavailable } from '@/lib/db';
import { logLine } from '@/lib/platform';

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

/** What decodeBody says of a body that is not JSON (the SCIM surface calls it invalidSyntax). */
export const NOT_JSON = 'The body is not valid JSON.';

/**
 * What an unexpected error may say in the log. Drizzle puts a failed query's parameters into its
 * message (proof hashes, session secret hashes, addresses): only the statement and the database's
 * own error code and message are kept, never the values.
 */
export function describeForLog(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const firstLine = error.message.split('\nparams:')[0];
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const causeText = cause ? ` (cause: ${cause.code ?? ''} ${cause.message ?? ''})`.replace(/\s+\)/, ')') : '';
  // Only the frames: the stack's head repeats the whole message.
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 5);
  return [`${error.name}: ${firstLine}${causeText}`, ...frames].join('\n');
}

/**
 * A database that cannot be reached is an outage, not a bug: 503 with Retry-After, so clients and load
 * balancers retry. Anything else that is not a catalogued error is a bug: log it with the request id,
 * say nothing more.
 */
export function toServiceError(error: unknown, requestId: string): ServiceError {
  if (error instanceof ServiceError) return error;
  if (isDatabaseUnavailable(error)) {
    logLine('error', 'database_unavailable', { request_id: requestId, error: describeForLog(error) });
    return serviceError('service_unavailable', 'The database is unreachable right now; retry shortly.', { headers: { 'Retry-After': '5' } });
  }
  logLine('error', 'unhandled_error', { request_id: requestId, error: describeForLog(error) });
  return serviceError('internal_error');
}
