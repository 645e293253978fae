/**
 * Pipeline steps for delegated operations (node-oidc-provider): after the generic steps, the request
 * is prepared (defaults, JSON to form), deduplicated by Idempotency-Key where the operation asks for
 * it, and handed to the delegate, whose answer and wire format are kept.
 */
import { getConfig } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import type { DelegatedOperation } from '@/lib/contract/operation';
import { beginIdempotent, hashRequest, type IdempotencyScope } from '@/lib/platform';
import { executeIdempotently } from './idempotent-execution';
import { clientAddress, keyedHash } from './client-address';
import { basicCredentials } from '@/lib/contract/authorization-header';
import { findRefusedCharacter, type RequestInput } from './input-hygiene';
import { runNodeHandler, type NodeAnswerTarget } from './node-bridge';
import { requestIdFor } from './request-id';
import { checkedIdempotencyKey } from './steps/idempotency';

const FORM = 'application/x-www-form-urlencoded';

interface PreparedRequest {
  request: Request;
  form: URLSearchParams;
  body: string;
  fromJson: boolean;
}

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A flat JSON object of strings as the form a standard client would have sent. */
function jsonAsForm(text: string): URLSearchParams {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw serviceError('invalid_request', 'The body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw serviceError('invalid_request', 'The body must be a JSON object.');
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string')
      throw serviceError('invalid_request', `${name} must be a string.`, { extras: { errors: [{ path: name, message: 'Expected a string' }] } });
    form.set(name, value);
  }
  return form;
}

function withDefaults(params: URLSearchParams, defaults: Record<string, string>): URLSearchParams {
  const filled = new URLSearchParams(params);
  for (const [name, value] of Object.entries(defaults)) if (!filled.get(name)) filled.set(name, value);
  return filled;
}

export function prepareDelegated(op: DelegatedOperation, request: Request, bodyText: string): PreparedRequest {
  // Most protocol GETs (discovery, keys, userinfo) pass through untouched.
  if (op.method === 'GET' && !op.defaultParameters) return { request, form: new URLSearchParams(), body: '', fromJson: false };
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  const fromJson = op.acceptsJson === true && mediaType(headers.get('content-type')) === 'application/json';
  const isForm = fromJson || mediaType(headers.get('content-type')) === FORM;
  if (fromJson) headers.set('content-type', FORM);
  const defaults = op.defaultParameters?.() ?? {};
  if (op.method === 'GET') {
    url.search = withDefaults(url.searchParams, defaults).toString();
    return { request: new Request(url, { method: request.method, headers }), form: new URLSearchParams(), body: '', fromJson };
  }
  if (!isForm) return { request, form: new URLSearchParams(), body: bodyText, fromJson };
  const form = withDefaults(fromJson ? jsonAsForm(bodyText) : new URLSearchParams(bodyText), defaults);
  return { request: new Request(url, { method: request.method, headers }), form, body: form.toString(), fromJson };
}

/**
 * Hands a request to the delegate's Node handler; the client address comes from the original request,
 * and the delegate sees the pipeline's request id (its error page shows it). With `writeTo`, a Node
 * handler writes its answer there itself (node-bridge.ts); a Web handler's answer is returned either way.
 */
export async function callDelegate(
  op: DelegatedOperation,
  request: Request,
  body: string,
  originalHeaders = request.headers,
  requestId?: string,
  now = new Date(),
  writeTo?: NodeAnswerTarget,
): Promise<Response> {
  if (op.webHandler) {
    // The pipeline has read the body already: the delegate gets a request that carries it again.
    const replayed = new Request(request.url, { method: request.method, headers: request.headers, body: body === '' ? undefined : body });
    return (await op.webHandler())(replayed, { requestId: requestId ?? requestIdFor(originalHeaders), now });
  }
  return runNodeHandler(await op.nodeHandler(), request, Buffer.from(body), getConfig().origin, clientAddress(originalHeaders), requestId, writeTo);
}

function answer(
  op: DelegatedOperation,
  prepared: PreparedRequest,
  originalHeaders: Headers,
  requestId: string,
  now: Date,
  writeTo?: NodeAnswerTarget,
): Promise<Response> {
  return callDelegate(op, prepared.request, prepared.body, originalHeaders, requestId, now, writeTo);
}

/** An error in the OAuth wire format (RFC 6749 §5.2), which every delegated surface speaks. */
function oauthError(status: number, error: string, description: string): Response {
  return new Response(JSON.stringify({ error, error_description: description }), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** What the delegate would read from the request: parameters, query, body, client credentials. */
function delegateInput(request: Request, bodyText: string, rawParams: Record<string, string>): RequestInput {
  const type = mediaType(request.headers.get('content-type'));
  let body: unknown;
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      body = JSON.parse(bodyText) as unknown;
    } catch {
      // Not JSON: the delegate (or jsonAsForm) refuses it in its own words.
    }
  }
  return {
    params: rawParams,
    query: new URL(request.url).searchParams,
    form: type === FORM ? new URLSearchParams(bodyText) : undefined,
    body,
    credentials: basicCredentials(request.headers.get('authorization')),
  };
}

/**
 * Runs the delegate, replaying a stored answer for a repeated Idempotency-Key. Input with control
 * characters or lone surrogates never reaches it (input-hygiene.ts): refused as an OAuth invalid_request.
 * With `writeTo`, the delegate may write its answer to Node's response itself; an answer stored under
 * an Idempotency-Key is always captured, and the caller writes what comes back unless the head is sent.
 */
export async function runDelegated(
  op: DelegatedOperation,
  request: Request,
  bodyText: string,
  rawParams: Record<string, string>,
  now: Date,
  requestId: string,
  writeTo?: NodeAnswerTarget,
): Promise<Response> {
  const refused = findRefusedCharacter(delegateInput(request, bodyText, rawParams));
  if (refused) return oauthError(400, 'invalid_request', `${refused.path}: ${refused.message}`);
  // A dot segment would make the delegate's URL name another path (`/oauth/authorize/..` is `/oauth/`).
  const dotSegment = Object.entries(rawParams).find(([, value]) => value === '.' || value === '..');
  if (dotSegment) return oauthError(400, 'invalid_request', `${dotSegment[0]}: a path segment cannot be "." or "..".`);
  const prepared = prepareDelegated(op, request, bodyText);
  const key = request.headers.get('idempotency-key');
  if (op.idempotency === 'required' && prepared.fromJson && key === null) throw serviceError('idempotency_key_required');
  if (op.idempotency === 'none' || key === null || !op.idempotencyCredential) return answer(op, prepared, request.headers, requestId, now, writeTo);
  checkedIdempotencyKey(key);

  // The key belongs to whoever holds the credential the request carries (for revocation: the token).
  const principal = `credential:${keyedHash(`${op.id}:${prepared.form.get(op.idempotencyCredential) ?? ''}`)}`;
  const scope: IdempotencyScope = { principal, operationId: op.id, key };
  const started = await beginIdempotent(scope, hashRequest(op.method, op.path, prepared.body), now, getConfig().ttl.idempotencyRecord);
  if ('replay' in started) {
    const stored = started.replay.body as { contentType: string | null; text: string };
    return new Response(stored.text || null, {
      status: started.replay.status,
      headers: { ...(stored.contentType ? { 'content-type': stored.contentType } : {}), 'Idempotent-Replayed': 'true' },
    });
  }
  // Built before the scope: the provider's first start-up writes its keys, which must not share the
  // fate of this execution's transaction (the provider keeps them in memory either way).
  await (op.nodeHandler ?? op.webHandler)();
  // The delegate's writes (the OIDC adapter uses getDb()) and the stored answer commit together.
  return executeIdempotently(started.claim, async () => {
    const response = await answer(op, prepared, request.headers, requestId, now);
    if (response.status >= 500) return { result: response, store: null };
    const text = await response.text();
    return {
      result: new Response(text || null, { status: response.status, headers: response.headers }),
      store: { status: response.status, body: { contentType: response.headers.get('content-type'), text } },
    };
  });
}
