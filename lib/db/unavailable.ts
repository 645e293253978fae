/**
 * Whether an error means the database cannot be reached right now (stopped, restarting, unreachable,
 * connections cut), as opposed to a bug or a refused statement. The pipeline answers these with 503
 * `service_unavailable`, so clients retry instead of reporting a server error, and nothing was
 * committed: the use case's one transaction never reached COMMIT.
 */

/** postgres-js connection errors (error.code) and Node socket errors. */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (admin or crash shutdown, cannot connect now)
 * and 53300 (too many connections).
 */
function isUnavailableState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps the driver's error as `cause` (DrizzleQueryError); walk a few levels, never a cycle.
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || isUnavailableState(code))) return true;
    current = current.cause;
  }
  return false;
}
