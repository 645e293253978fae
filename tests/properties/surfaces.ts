/**
 * What every answer must look like, per surface: the properties of the bad-input suite.
 *  1. never a 5xx;
 *  2. the surface's error format, with X-Request-ID:
 *     - API operations: application/problem+json with a catalogued `code`, its `status`, and the
 *       `request_id` of the header (a replayed answer, `Idempotent-Replayed: true`, is the stored one
 *       as it was, with the `request_id` of the execution that produced it: docs/decisions.md,
 *       Idempotency);
 *     - delegated OAuth operations (node-oidc-provider): the OAuth error JSON `{ error }`, or the
 *       pipeline's problem document for what the pipeline refused before handing over (version, size,
 *       rate limit, Origin, Idempotency-Key, JSON-to-form conversion in lib/http/delegated.ts);
 *     - among those, browser navigations (operations whose success is a redirect: authorization,
 *       resume) may also answer with a redirect or an HTML page for the person (RFC 6749 4.1.2.1:
 *       with a bad client or redirect URI the server must not redirect);
 *     - SCIM operations: application/scim+json in the SCIM error schema (RFC 7644 §3.12);
 *     - any redirect carries a Location;
 *  3. (judged in the test, with write-counter.ts) nothing written by a refused request;
 *  4. an input the operation's own schema refuses never succeeds.
 */
import type { z } from 'zod';
import { ERROR_CATALOGUE } from '@/lib/contract/errors';
import { SCIM_ERROR_SCHEMA, SCIM_MEDIA_TYPE, surfaceOf } from '@/lib/http/surfaces';
import type { AnyOperation } from '@/lib/contract/operation';
import { ORIGIN } from '../helpers/http';
import type { Answer, Probe } from './probe';

const isRedirect = (status: number) => status >= 300 && status < 400;
const mediaType = (answer: Answer) => (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

function parse(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function problemViolations(answer: Answer): string[] {
  const body = parse(answer.text);
  if (!body) return ['problem+json body is not a JSON object'];
  const violations: string[] = [];
  if (typeof body.code !== 'string' || !(body.code in ERROR_CATALOGUE)) violations.push(`problem code ${JSON.stringify(body.code)} is not catalogued`);
  if (body.status !== answer.status) violations.push(`problem status ${String(body.status)} differs from ${answer.status}`);
  const replayed = answer.headers.get('idempotent-replayed') === 'true';
  if (replayed ? typeof body.request_id !== 'string' || body.request_id === '' : body.request_id !== answer.headers.get('x-request-id')) {
    violations.push(replayed ? 'a replayed problem without its request_id' : 'problem request_id differs from X-Request-ID');
  }
  return violations;
}

/** A delegated operation whose success is a redirect is a browser navigation. */
const isNavigation = (op: AnyOperation) => op.kind === 'delegated' && isRedirect(op.successStatus);

/** RFC 7644 §3.12: the SCIM error schema, `status` the HTTP status as a string. */
function scimErrorViolations(answer: Answer): string[] {
  const body = parse(answer.text);
  if (!body) return ['a SCIM error body is not a JSON object'];
  const violations: string[] = [];
  if (!Array.isArray(body.schemas) || body.schemas[0] !== SCIM_ERROR_SCHEMA) violations.push('a SCIM error without the Error schema');
  if (body.status !== String(answer.status)) violations.push(`SCIM error status ${JSON.stringify(body.status)} differs from "${answer.status}"`);
  if (typeof body.detail !== 'string' || body.detail === '') violations.push('a SCIM error without a detail');
  return violations;
}

function errorFormatViolations(op: AnyOperation, answer: Answer): string[] {
  const type = mediaType(answer);
  if (surfaceOf(op.path) === 'scim')
    return type === SCIM_MEDIA_TYPE ? scimErrorViolations(answer) : [`a SCIM error must be ${SCIM_MEDIA_TYPE}, got ${JSON.stringify(type)}`];
  if (type === 'application/problem+json') return problemViolations(answer);
  if (op.kind !== 'delegated') return [`an API error must be application/problem+json, got ${JSON.stringify(type)}`];
  if (type === 'application/json' && typeof parse(answer.text)?.error === 'string') return [];
  if (isNavigation(op) && type === 'text/html') return [];
  return [`a protocol error must be OAuth JSON { error }${isNavigation(op) ? ' or an HTML page' : ''} or a problem document, got ${JSON.stringify(type)}`];
}

/** Properties 1 and 2. */
export function answerViolations(op: AnyOperation, answer: Answer): string[] {
  const violations: string[] = [];
  if (answer.status >= 500) violations.push(`answered ${answer.status}`);
  if (!/^[A-Za-z0-9._:-]{8,128}$/.test(answer.headers.get('x-request-id') ?? '')) violations.push('no sane X-Request-ID');
  if (isRedirect(answer.status) && !answer.headers.get('location')) violations.push('a redirect without Location');
  if (answer.status >= 400) violations.push(...errorFormatViolations(op, answer));
  return violations;
}

/** Refused: an error status, or a redirect that carries an OAuth error to the client. */
export function isRefusal(answer: Answer): boolean {
  if (answer.status >= 400) return true;
  const location = answer.headers.get('location');
  if (!isRedirect(answer.status) || !location) return false;
  const url = new URL(location, ORIGIN);
  return url.searchParams.has('error') || new URLSearchParams(url.hash.slice(1)).has('error');
}

function refusedBy(schema: z.ZodType | undefined, value: () => unknown): boolean {
  if (!schema) return false;
  let input: unknown;
  try {
    input = value();
  } catch {
    return false;
  }
  return !schema.safeParse(input).success;
}

/**
 * Property 4: which of the operation's own schemas refuses the request as sent (judged with zod
 * directly, not with the pipeline's code). Only JSON bodies are judged, conservatively.
 */
export function schemaRefusal(op: AnyOperation, probe: Probe): string | null {
  if (op.kind === 'delegated') return null;
  const search = new URL(probe.url).searchParams;
  const query = Object.fromEntries([...search].filter(([key]) => op.kind !== 'collection' || (key !== 'limit' && key !== 'cursor')));
  if (refusedBy(op.params, () => probe.params)) return 'params';
  if (refusedBy(op.query, () => query)) return 'query';
  const json = (probe.headers['content-type'] ?? '').toLowerCase() === 'application/json';
  // As the pipeline reads it: an empty or null body is an empty object.
  if (op.kind === 'resource' && json && probe.body !== null && refusedBy(op.body, () => (JSON.parse(probe.body!) as unknown) ?? {})) return 'body';
  return null;
}
