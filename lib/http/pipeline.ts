/**
 * The one request pipeline (ARCHITECTURE.md). Every API operation runs through these steps, in this
 * order; the order is part of the security design (e.g. the version check precedes authentication,
 * parsing follows it so anonymous callers learn nothing about schemas).
 */
import type { z } from 'zod';
import { getConfig } from '@/lib/config';
import { principalOf, type Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { isHandlerResult, isUnsafe, type AnyOperation, type HandlerContext, type PageRequest } from '@/lib/contract/operation';
import { withDeclaredEvents } from '@/lib/events';
import { beginIdempotent, hashRequest, isValidIdempotencyKey, type IdempotencyClaim } from '@/lib/platform';
import { bearerEnvelope } from './bearer-envelope';
import { assertCsrf, authenticate, authorize, authorizeInput, presentedSession, sessionCookieHeader } from './auth';
import { deviceLabel } from './device';
import { decodeBody, DEFAULT_MAX_BODY_BYTES, readBoundedBody } from './body';
import { clientKey, deviceBinding, keyedHash } from './client-address';
import { runDelegated } from './delegated';
import { encodeCursor, parsePageRequest } from './cursor';
import { executeIdempotently } from './idempotent-execution';
import { assertOrigin } from './origin';
import { problemBody, problemResponse, toServiceError } from './problem';
import { enforceClientLimit, enforceSubjectLimit, type RateHeaders } from './rate-limit';
import { requestIdFor } from './request-id';
import { recordDelegatedAnswer, recordRefusal } from './security-events';
import { passed } from './pipeline-steps';
import { parseInput } from './validation';
import { assertSupportedVersion, versionHeaders } from './versioning';

export interface PipelineOptions {
  /** Injectable clock for tests; production uses the wall clock. */
  now?: () => Date;
}

export async function runOperation(
  op: AnyOperation,
  request: Request,
  rawParams: Record<string, string> = {},
  options: PipelineOptions = {},
): Promise<Response> {
  const requestId = requestIdFor(request.headers);
  const now = options.now?.() ?? new Date();
  const baseHeaders: Record<string, string> = { ...versionHeaders(op), 'X-Request-ID': requestId };
  let rateHeaders: RateHeaders = {};
  try {
    // 2. Version, before anything that authenticates or touches data.
    assertSupportedVersion(request.headers);
    passed(op, 'version');

    // 3. Body size (read, bounded; decoded only after authentication).
    const bodyText = isUnsafe(op.method) ? await readBoundedBody(request, op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : '';
    const contentType = request.headers.get('content-type');
    passed(op, 'body_size');

    // 4. Client rate limit (cheap, pre-auth).
    const client = clientKey(request.headers);
    if (op.rateLimit) rateHeaders = await enforceClientLimit(op.rateLimit, client, now);
    passed(op, 'client_rate_limit');

    // 5. Origin rule.
    assertOrigin(op.origin, request.headers);
    passed(op, 'origin');

    // Delegated protocols (OAuth/OIDC) authenticate and answer in their own format from here on.
    if (op.kind === 'delegated') {
      passed(op, 'handed_to_provider');
      const answer = await runDelegated(op, request, bodyText, rawParams, now, requestId);
      await recordDelegatedAnswer(op, request, answer, requestId, now);
      const headers = new Headers(answer.headers);
      for (const [name, value] of Object.entries({ ...baseHeaders, ...rateHeaders })) headers.set(name, value);
      if (!headers.has('cache-control')) headers.set('cache-control', op.cacheControl ?? 'no-store');
      return new Response(answer.body, { status: answer.status, headers });
    }

    // 6. Authenticate.
    const actor: Actor = await authenticate(op.auth, request, now);
    // A sign-in ends the session the browser already holds (whoever's it is): resolved here, ended by the handler.
    const presented = op.startsSession ? await presentedSession(request, now) : null;
    passed(op, 'authentication');

    // 7. CSRF for cookie-authenticated unsafe methods.
    if (isUnsafe(op.method)) assertCsrf(actor, request.headers, formField(bodyText, contentType, 'csrf_token'));
    passed(op, 'csrf');

    // 8. Authorize: scopes, the tenant (membership, permission, the organization's policies), step-up.
    const tenant = await authorize(op, actor, rawParams, request, now);
    passed(op, 'authorization');

    // 9. Parse params, query, body.
    const url = new URL(request.url);
    const decoded = op.body ? decodeBody(bodyText, contentType, op.acceptsForm === true) : undefined;
    const input = parseInput(op, rawParams, url.searchParams, decoded);
    await authorizeInput(op.auth, actor, input, now, tenant);
    const page: PageRequest = op.kind === 'collection' ? parsePageRequest(op.id, url.searchParams) : { limit: 0, after: null };
    passed(op, 'parsing');

    // 10. Subject rate limits that need the parsed input (never told in headers: rate-limit.ts).
    if (op.subjectRateLimit) {
      const subjectOf = op.subjectRateLimit.subject as (parsed: { body: unknown; query: unknown; actor: Actor }) => string;
      // Subjects (e-mail addresses, account ids) are stored only as keyed hashes.
      const subject = keyedHash(`subject:${op.subjectRateLimit.bucket}:${subjectOf({ body: input.body, query: input.query, actor })}`);
      await enforceSubjectLimit(op.subjectRateLimit.bucket, subject, now);
    }

    // 11. Idempotency: replay a stored answer, or claim the key for this execution.
    const idempotencyKey = request.headers.get('idempotency-key');
    if (op.idempotency === 'required' && idempotencyKey === null) throw serviceError('idempotency_key_required');
    let claim: IdempotencyClaim | null = null;
    if (op.idempotency !== 'none' && idempotencyKey !== null) {
      if (!isValidIdempotencyKey(idempotencyKey)) throw serviceError('invalid_request', 'Idempotency-Key must be 1-255 visible ASCII characters.');
      const scope = { principal: principalOf(actor), operationId: op.id, key: idempotencyKey };
      const started = await beginIdempotent(scope, hashRequest(op.method, url.pathname, bodyText), now, getConfig().ttl.idempotencyRecord);
      if ('replay' in started) return json(started.replay.status, started.replay.body, { ...baseHeaders, ...rateHeaders, 'Idempotent-Replayed': 'true' }, op);
      claim = started.claim;
    }
    passed(op, 'idempotency');

    // 12. Handler -> service. 13. Response through its schema: anything undeclared is stripped.
    const device = deviceLabel(request.headers.get('user-agent'));
    const bodyFormat = !bodyText ? 'none' : (contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded') ? 'form' : 'json';
    const bindingOfRequest = () => deviceBinding(request.headers);
    const context = {
      ...input,
      actor,
      requestId,
      now,
      clientKey: client,
      device,
      bodyFormat,
      page,
      presentedSession: presented,
      tenant,
      deviceBinding: bindingOfRequest,
    } as const;
    const respond = async () => {
      const { status, body, headers } = await withDeclaredEvents(op.id, op.emits ?? [], () => invoke(op, context));
      return { stored: { status, body }, response: json(status, body, { ...baseHeaders, ...rateHeaders, ...headers }, op) };
    };
    if (!claim) return (await respond()).response;
    // The execution's writes and its stored answer commit together (idempotent-execution.ts).
    return await executeIdempotently(claim, async () => {
      try {
        const { stored, response } = await respond();
        return { result: response, store: stored };
      } catch (error) {
        // Client errors are final for this key; a server failure rolls back and frees it for a retry.
        const failure = toServiceError(error, requestId);
        await recordRefusal(op, request, failure, requestId, now);
        const store = failure.status >= 500 ? null : { status: failure.status, body: problemBody(failure, requestId) };
        return { result: problemResponse(failure, requestId, { ...baseHeaders, ...rateHeaders }), store };
      }
    });
  } catch (error) {
    // 14. Errors in the API's wire format; refusals that matter to security are logged and counted.
    const failure = toServiceError(error, requestId);
    await recordRefusal(op, request, failure, requestId, now);
    return problemResponse(failure, requestId, { ...baseHeaders, ...rateHeaders });
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the context is validated by the operation's own schemas
async function invoke(op: Exclude<AnyOperation, { kind: 'delegated' }>, ctx: HandlerContext<any, any, any>) {
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
  return { status, body: (op.response as z.ZodType).parse(body), headers };
}

function formField(bodyText: string, contentType: string | null, field: string): string | null {
  if (!(contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return null;
  return new URLSearchParams(bodyText).get(field);
}

function json(status: number, body: unknown, headers: Record<string, string>, op: AnyOperation): Response {
  const isProblem = typeof body === 'object' && body !== null && 'code' in body && 'request_id' in body && status >= 400;
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': isProblem ? 'application/problem+json' : 'application/json',
      'Cache-Control': op.cacheControl ?? 'no-store',
      ...headers,
    },
  });
}
