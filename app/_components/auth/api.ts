/**
 * The one way the account pages talk to the JSON API from the browser. Same-origin fetch, so the
 * browser sends the exact Origin the API requires; errors come back as RFC 9457 problem documents.
 */

export interface FieldProblem {
  path: string;
  message: string;
}

export interface Problem {
  type?: string;
  title: string;
  status?: number;
  detail?: string;
  /** Stable API error code, or one of the local codes below for failures that never reached the API. */
  code?: string;
  request_id?: string;
  errors?: FieldProblem[];
  step_up?: { methods: ('passkey' | 'password')[]; max_age_seconds: number };
}

export type ApiResult<T = unknown> =
  | { ok: true; status: number; body: T }
  /** `retryAfter`: seconds from a 429's Retry-After header, when it sent one. */
  | { ok: false; status: number; body: Problem; retryAfter?: number };

export interface CallOptions {
  /** The session's CSRF token (from GET /api/auth/session); required for cookie-authenticated mutations. */
  csrf?: string;
  /** Extra headers, e.g. X-Enrollment-Token or X-Recovery-Token. */
  headers?: Record<string, string>;
  /** Defaults to POST when there is a body, GET otherwise. */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
}

/** A failure that happened in the browser (network, cancelled passkey prompt), shaped like a problem. */
export function localProblem(title: string, code: string): ApiResult<never> {
  return { ok: false, status: 0, body: { title, code } };
}

export async function callApi<T = unknown>(path: string, body?: unknown, options: CallOptions = {}): Promise<ApiResult<T>> {
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.csrf) headers['X-CSRF-Token'] = options.csrf;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    return localProblem('The service could not be reached. Check your connection and try again.', 'network_error');
  }

  const parsed: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, body: parsed as T };
  const problem = isProblem(parsed) ? parsed : { title: 'Something went wrong. Please try again.', status: response.status };
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  return { ok: false, status: response.status, body: problem, ...(Number.isInteger(retryAfter) && retryAfter >= 0 ? { retryAfter } : {}) };
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as Problem).title === 'string';
}

/**
 * What a person reads. Field errors are sentences of their own ("Enter a valid e-mail address."); the
 * API's `detail` prefixes each with its field pointer ("body.email: ...") for programs, which people
 * should never see. Otherwise the `detail` when there is one, else the `title`.
 */
export function problemMessage(problem: Problem): string {
  if (problem.errors?.length) return problem.errors.map((error) => error.message).join(' ');
  return problem.detail ?? problem.title;
}

/** The request body field a field error points at ("body.display_name" -> "display_name"), if any. */
export function bodyField(error: FieldProblem): string | null {
  return error.path.startsWith('body.') ? error.path.slice('body.'.length) : null;
}

export function isStepUpRequired(result: ApiResult): result is { ok: false; status: number; body: Problem } {
  return !result.ok && result.status === 403 && result.body.code === 'step_up_required';
}
