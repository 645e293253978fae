/**
 * One request on its way through the pipeline (pipeline.ts): what the steps have learnt so far, each
 * step writing what it establishes (the body, the caller, the tenant, the parsed input, the claimed
 * Idempotency-Key) for the steps after it. What a step has not established yet is absent, and a later
 * step that needs it says so loudly (`established`): the order of the list is the security design.
 */
import type { Actor, SessionActor } from '@/lib/contract/actor';
import type { AnyOperation, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import type { IdempotencyClaim } from '@/lib/platform';
import type { NodeAnswerTarget } from '../node-bridge';
import type { PipelineStep } from '../pipeline-steps';
import { toServiceError } from '../problem';
import type { RateHeaders } from '../rate-limit';
import { recordRefusal } from '../security-events';
import { errorMediaType, errorResponse, successMediaType, surfaceOf } from '../surfaces';

export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

export interface Flow {
  readonly op: AnyOperation;
  readonly request: Request;
  readonly rawParams: Record<string, string>;
  readonly now: Date;
  readonly requestId: string;
  readonly url: URL;
  readonly contentType: string | null;
  /** On every answer: the version headers and the request id. */
  readonly baseHeaders: Record<string, string>;
  /** The client bucket's RateLimit headers, once it was spent (they go on every later answer). */
  rateHeaders: RateHeaders;
  /** The bounded body of an unsafe request ('' for safe methods). */
  bodyText: string;
  /** Keyed hash of the client address (never the address itself). */
  client?: string;
  actor?: Actor;
  /** On operations that start a session: the live session the request's cookie belongs to. */
  presentedSession?: SessionActor | null;
  tenant?: TenantActor | null;
  input?: ParsedInput;
  page?: PageRequest;
  /** The Idempotency-Key this execution holds, or null: it runs without one. */
  claim: IdempotencyClaim | null;
  /**
   * Node's response and its fixed headers, for a request that came by the protocol lane: a delegate
   * writes its answer there itself, with no copy of it made (node-bridge.ts).
   */
  readonly answerTo?: NodeAnswerTarget;
}

/**
 * A named step: it checks or establishes something about the request, and passes (nothing to say),
 * throws (the request is refused), or answers early (an idempotent replay).
 */
export interface Step {
  name: PipelineStep;
  run: (flow: Flow) => void | Response | Promise<void | Response>;
}

/** What an earlier step established; its absence is a bug in the step order, never a caller's fault. */
export function established<T>(value: T | undefined, step: PipelineStep): T {
  if (value === undefined) throw new Error(`The pipeline step "${step}" has not run yet`);
  return value;
}

/** The headers every answer carries from the point the request reached. */
export function answerHeaders(flow: Flow, extra: Record<string, string> = {}): Record<string, string> {
  return { ...flow.baseHeaders, ...flow.rateHeaders, ...extra };
}

export function jsonAnswer(flow: Flow, status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const surface = surfaceOf(flow.op.path);
  // A stored refusal replayed under its Idempotency-Key keeps the error media type.
  const isError = status >= 400 && typeof body === 'object' && body !== null && ('request_id' in body || 'schemas' in body);
  return new Response(status === 204 || status === 304 ? null : JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': isError ? errorMediaType(surface) : successMediaType(surface),
      'Cache-Control': flow.op.cacheControl ?? 'no-store',
      ...answerHeaders(flow, headers),
    },
  });
}

/** A refusal in the API's wire format; refusals that matter to security are logged and counted. */
export async function refusal(flow: Flow, error: unknown) {
  const failure = toServiceError(error, flow.requestId);
  await recordRefusal(flow.op, flow.request, failure, flow.requestId, flow.now);
  return { failure, response: errorResponse(surfaceOf(flow.op.path), failure, flow.requestId, answerHeaders(flow)) };
}
