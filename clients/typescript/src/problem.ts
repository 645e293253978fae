/**
 * The service answers every refusal of the API with an RFC 9457 problem document: `type`, `title`,
 * `status`, `detail`, a stable `code` (docs/errors-and-limits.md) and the `request_id` to quote to
 * support. The client throws it as a ProblemError; anything else that is not a success (a proxy's HTML
 * page, a cut connection's empty body) is an UnexpectedResponseError.
 */
import type { ProblemCode } from './catalogue.js';

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  request_id: string;
  /** Validation errors: which input was refused and why. */
  errors?: { path: string; message: string }[];
  /** Further members some codes carry (e.g. `approval`, `supported_versions`). */
  [member: string]: unknown;
}

export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  readonly status: number;
  /** One of the documented codes; a newer service may send one this client does not know yet. */
  readonly code: ProblemCode | (string & {});
  readonly title: string;
  readonly detail: string | undefined;
  /** The request's id (problem body, else X-Request-ID): quote it when asking for support. */
  readonly requestId: string | null;
  /** Seconds to wait before trying again, from Retry-After (429, 503); null when absent. */
  readonly retryAfter: number | null;
  /** The whole problem document, with any extra members. */
  readonly problem: ProblemDocument;

  constructor(problem: ProblemDocument, headers: Headers, now = Date.now()) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title}`);
    this.problem = problem;
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.requestId = problem.request_id ?? headers.get('x-request-id');
    this.retryAfter = retryAfterSeconds(headers.get('retry-after'), now);
  }
}

export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';

  readonly status: number;
  readonly contentType: string | null;
  readonly requestId: string | null;

  constructor(status: number, contentType: string | null, requestId: string | null) {
    super(`Unexpected ${status} response (${contentType ?? 'no content type'}) from the identity service`);
    this.status = status;
    this.contentType = contentType;
    this.requestId = requestId;
  }
}

/** Retry-After is delay-seconds or an HTTP-date (RFC 9110 §10.2.3); both become seconds from now. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function isProblemDocument(body: unknown): body is ProblemDocument {
  if (typeof body !== 'object' || body === null) return false;
  const { status, code } = body as Record<string, unknown>;
  return typeof status === 'number' && typeof code === 'string';
}
