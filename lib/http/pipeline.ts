/**
 * The one request pipeline (ARCHITECTURE.md). Every API operation runs through the steps below, in
 * their order; the order is part of the security design (e.g. the version check precedes
 * authentication, parsing follows it so anonymous callers learn nothing about schemas). Each step
 * passed is reported to the step observer (pipeline-steps.ts), which only tests listen to.
 */
import type { z } from 'zod';
import type { ServiceError } from '@/lib/contract/errors';
import { isHandlerResult, isUnsafe, type AnyOperation, type DelegatedOperation, type HandlerContext } from '@/lib/contract/operation';
import { withDeclaredEvents } from '@/lib/events';
import { recordAnswer } from './access-record';
import { assertCsrf, authenticate, authorize, authorizeInput, presentedSession, readCookie, sessionCookieHeader } from './auth';
import { sessionCookieName } from '@/lib/sessions';
import { bearerEnvelope } from './bearer-envelope';
import { decodeBody, DEFAULT_MAX_BODY_BYTES, readBoundedBody } from './body';
import { clientKey, deviceBinding } from './client-address';
import { encodeCursor, parsePageRequest } from './cursor';
import { runDelegated } from './delegated';
import type { NodeAnswerTarget } from './node-bridge';
import { deviceLabel } from './device';
import { assertOrigin } from './origin';
import { passed } from './pipeline-steps';
import { enforceClientLimit } from './rate-limit';
import { requestIdFor } from './request-id';
import { recordDelegatedAnswer } from './security-events';
import { answerHeaders, established, jsonAnswer, refusal, type Flow, type Step } from './steps/flow';
import { executeClaimed, idempotencyStep, type Executed } from './steps/idempotency';
import { subjectRateLimitStep } from './steps/subject-rate-limit';
import { parseInput } from './validation';
import { assertSupportedVersion, versionHeaders } from './versioning';

type ApiOperation = Exclude<AnyOperation, DelegatedOperation>;

export interface PipelineOptions {
  /** Injectable clock for tests; production uses the wall clock. */
  now?: () => Date;
  /** The protocol lane's Node response, where a delegate may write its answer itself. */
  answerTo?: NodeAnswerTarget;
}

/** Steps 2-5, for every operation: cheap, before anything authenticates or touches data. */
const GENERIC_STEPS: readonly Step[] = [
  { name: 'version', run: (flow) => assertSupportedVersion(flow.request.headers) },
  // Read and bounded here; decoded only after authentication.
  { name: 'body_size', run: readBody },
  { name: 'client_rate_limit', run: spendClientBucket },
  { name: 'origin', run: (flow) => assertOrigin(flow.op.origin, flow.request.headers) },
];

/** Steps 6-11, for API operations; delegated protocols authenticate and parse in their provider. */
const API_STEPS: readonly Step[] = [
  ...GENERIC_STEPS,
  { name: 'authentication', run: authenticateCaller },
  // CSRF for cookie-authenticated unsafe methods.
  { name: 'csrf', run: checkCsrf },
  // Scopes, the tenant (membership, permission, the organization's policies), step-up.
  { name: 'authorization', run: authorizeCaller },
  { name: 'parsing', run: parseRequest },
  subjectRateLimitStep,
  idempotencyStep,
];

export async function runOperation(
  op: AnyOperation,
  request: Request,
  rawParams: Record<string, string> = {},
  options: PipelineOptions = {},
): Promise<Response> {
  const startedAt = performance.now();
  const flow = startFlow(op, request, rawParams, options.now?.() ?? new Date(), options.answerTo);
  const { response, failure } = await answer(flow);
  // 15. The access line and the request metrics, once per request, whatever the answer.
  recordAnswer({ op, requestId: flow.requestId, status: response.status, startedAt, actorKind: flow.actor?.kind ?? 'anonymous', failure });
  return response;
}

async function answer(flow: Flow): Promise<{ response: Response; failure: ServiceError | null }> {
  const { op } = flow;
  try {
    for (const step of op.kind === 'delegated' ? GENERIC_STEPS : API_STEPS) {
      const answered = await step.run(flow);
      if (answered) return { response: answered, failure: null };
      passed(op, step.name);
    }
    // 12. Handler -> service. 13. Response through its schema: anything undeclared is stripped.
    return { response: op.kind === 'delegated' ? await handToProvider(flow, op) : await execute(flow, op), failure: null };
  } catch (error) {
    // 14. Errors in the API's wire format.
    return refusal(flow, error);
  }
}

/** 1. The request id, the clock and what the request says about itself. */
function startFlow(op: AnyOperation, request: Request, rawParams: Record<string, string>, now: Date, answerTo?: NodeAnswerTarget): Flow {
  const requestId = requestIdFor(request.headers);
  return {
    op,
    request,
    rawParams,
    now,
    requestId,
    url: new URL(request.url),
    contentType: request.headers.get('content-type'),
    baseHeaders: { ...versionHeaders(op), 'X-Request-ID': requestId },
    rateHeaders: {},
    bodyText: '',
    claim: null,
    answerTo,
  };
}

async function readBody(flow: Flow): Promise<void> {
  if (isUnsafe(flow.op.method)) flow.bodyText = await readBoundedBody(flow.request, flow.op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
}

/** The client bucket, keyed by the caller's own network address; its use is told in RateLimit headers. */
async function spendClientBucket(flow: Flow): Promise<void> {
  flow.client = clientKey(flow.request.headers);
  if (flow.op.rateLimit) flow.rateHeaders = await enforceClientLimit(flow.op.rateLimit, flow.client, flow.now);
}

async function authenticateCaller(flow: Flow): Promise<void> {
  flow.actor = await authenticate(flow.op.auth, flow.request, flow.now);
  // A sign-in ends the session the browser already holds (whoever's it is): resolved here, ended by the handler.
  flow.presentedSession = flow.op.startsSession ? await presentedSession(flow.request, flow.now) : null;
}

function checkCsrf(flow: Flow): void {
  if (isUnsafe(flow.op.method)) assertCsrf(established(flow.actor, 'authentication'), flow.request.headers, formField(flow, 'csrf_token'));
}

async function authorizeCaller(flow: Flow): Promise<void> {
  flow.tenant = await authorize(flow.op, established(flow.actor, 'authentication'), flow.rawParams, flow.request, flow.now);
}

/** Params, query and body; then the step-up some inputs need, and the page a collection asks for. */
async function parseRequest(flow: Flow): Promise<void> {
  const { op } = flow;
  const decoded = op.body ? decodeBody(flow.bodyText, flow.contentType, op.acceptsForm === true) : undefined;
  const input = parseInput(op, flow.rawParams, flow.url.searchParams, decoded);
  await authorizeInput(op.auth, established(flow.actor, 'authentication'), input, flow.now, established(flow.tenant, 'authorization'));
  flow.input = input;
  flow.page = op.kind === 'collection' ? parsePageRequest(op.id, flow.url.searchParams) : { limit: 0, after: null };
}

/** Delegated protocols (OAuth/OIDC) answer in their own format; the pipeline adds its headers. */
async function handToProvider(flow: Flow, op: DelegatedOperation): Promise<Response> {
  passed(op, 'handed_to_provider');
  const cacheControl = op.cacheControl ?? 'no-store';
  // Headers the delegate sets itself win: it never sets ours, and its Cache-Control replaces the default.
  const writeTo = flow.answerTo && { res: flow.answerTo.res, headers: { ...flow.answerTo.headers, 'Cache-Control': cacheControl, ...answerHeaders(flow) } };
  const answer = await runDelegated(op, flow.request, flow.bodyText, flow.rawParams, flow.now, flow.requestId, writeTo);
  await recordDelegatedAnswer(op, flow.request, answer, flow.requestId, flow.now);
  // Written through: the answer has gone out with those headers, and this is its receipt.
  if (writeTo?.res.headersSent) return answer;
  const headers = new Headers(answer.headers);
  for (const [name, value] of Object.entries(answerHeaders(flow))) headers.set(name, value);
  if (!headers.has('cache-control')) headers.set('cache-control', cacheControl);
  return new Response(answer.body, { status: answer.status, headers });
}

/** Runs the handler, under the claimed Idempotency-Key when there is one. */
async function execute(flow: Flow, op: ApiOperation): Promise<Response> {
  const context = handlerContext(flow);
  const run = async (): Promise<Executed> => {
    const { status, body, headers } = await withDeclaredEvents(op.id, op.emits ?? [], () => invoke(op, context));
    return { stored: { status, body }, response: jsonAnswer(flow, status, body, headers) };
  };
  return flow.claim ? executeClaimed(flow, flow.claim, run) : (await run()).response;
}

function handlerContext(flow: Flow) {
  const { request, bodyText, contentType } = flow;
  return {
    ...established(flow.input, 'parsing'),
    actor: established(flow.actor, 'authentication'),
    requestId: flow.requestId,
    now: flow.now,
    clientKey: established(flow.client, 'client_rate_limit'),
    device: deviceLabel(request.headers.get('user-agent')),
    bodyFormat: !bodyText ? 'none' : (contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded') ? 'form' : 'json',
    page: established(flow.page, 'parsing'),
    presentedSession: established(flow.presentedSession, 'authentication'),
    tenant: established(flow.tenant, 'authorization'),
    deviceBinding: () => deviceBinding(request.headers),
    cookie: (name: string) => (name === sessionCookieName() ? null : readCookie(request.headers, name)),
    preconditions: { ifMatch: request.headers.get('if-match'), ifNoneMatch: request.headers.get('if-none-match') },
  } as const;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the context is validated by the operation's own schemas
async function invoke(op: ApiOperation, ctx: HandlerContext<any, any, any>) {
  if (op.kind === 'collection') {
    const page = await op.handler(ctx);
    const items = (op.item as z.ZodType).array().parse(page.items);
    const body = {
      [op.collection]: items,
      has_more: page.hasMore,
      next_cursor: page.hasMore && page.last ? encodeCursor(op.id, page.last) : null,
      ...bearerEnvelope(op, ctx.actor),
    };
    return { status: op.successStatus, body, headers: {} as Record<string, string> };
  }
  const outcome: unknown = await op.handler(ctx);
  const { status, body, headers } = isHandlerResult(outcome)
    ? {
        status: outcome.status || op.successStatus,
        body: outcome.body,
        headers: outcome.sessionCookie ? { ...outcome.headers, 'Set-Cookie': sessionCookieHeader(outcome.sessionCookie) } : outcome.headers,
      }
    : { status: op.successStatus, body: outcome, headers: {} };
  // 304 Not Modified has no body (RFC 9110 §15.4.5): the client keeps the representation it has.
  return { status, body: status === 304 ? null : (op.response as z.ZodType).parse(body), headers };
}

function formField(flow: Flow, field: string): string | null {
  if (!(flow.contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return null;
  return new URLSearchParams(flow.bodyText).get(field);
}
