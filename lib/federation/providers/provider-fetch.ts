/**
 * Every request to an organization's identity provider (discovery, JWKS, token endpoint, SAML
 * metadata) goes through the one outbound guard webhooks use (lib/platform/outbound.ts): HTTPS only
 * (never the plain-http loopback allowance of local development), public addresses only unless
 * OUTBOUND_ALLOW_PRIVATE_NETWORKS, bounded in time and size. Redirects of metadata documents are
 * followed a few times, each new address checked again; protocol calls never follow redirects.
 */
import { checkDestination, exchange, type OutboundFailure, type UrlRefusal } from '@/lib/platform';

export const PROVIDER_TIMEOUT_MS = 5_000;
/** Discovery documents, JWKS and SAML metadata are small; anything larger is refused, not truncated. */
export const MAX_DOCUMENT_BYTES = 512 * 1024;
const MAX_REDIRECTS = 3;

/** Why a provider's document could not be had: safe to show (no address, no body). */
export type FetchFailure =
  | Exclude<UrlRefusal, 'too_long' | 'control_characters' | 'fragment' | 'credentials' | 'invalid_url'>
  | OutboundFailure
  | 'invalid_url'
  | 'http_error'
  | 'too_large'
  | 'too_many_redirects';

export type FetchOutcome = { ok: true; body: Buffer; url: string } | { ok: false; failure: FetchFailure };

/** The URL as the guard accepts it for a provider (https only), or why not. */
export async function providerUrl(raw: string): Promise<{ href: string } | { refusal: FetchFailure }> {
  const checked = await checkDestination(raw);
  if ('refusal' in checked)
    return {
      refusal: checked.refusal === 'dns_refused' || checked.refusal === 'private_address' || checked.refusal === 'not_https' ? checked.refusal : 'invalid_url',
    };
  return new URL(checked.href).protocol === 'https:' ? checked : { refusal: 'not_https' };
}

/** GETs a provider's document (JSON or XML), following at most three redirects, each re-checked. */
export async function fetchProviderDocument(raw: string, accept: string): Promise<FetchOutcome> {
  let next = raw;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const url = await providerUrl(next);
    if ('refusal' in url) return { ok: false, failure: url.refusal };
    const answer = await exchange('GET', url.href, { headers: { accept }, timeoutMs: PROVIDER_TIMEOUT_MS, keepBytes: MAX_DOCUMENT_BYTES });
    if ('failure' in answer) return { ok: false, failure: answer.failure };
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400 && typeof location === 'string') {
      next = new URL(location, url.href).href;
      continue;
    }
    if (answer.status !== 200) return { ok: false, failure: 'http_error' };
    if (answer.truncated) return { ok: false, failure: 'too_large' };
    return { ok: true, body: answer.body, url: url.href };
  }
  return { ok: false, failure: 'too_many_redirects' };
}

/**
 * A `fetch` for openid-client's token and JWKS calls (its `customFetch`): the same guard, no
 * redirects followed, the answer bounded. A refusal is thrown as a network error would be.
 */
export interface GuardedFetchInit {
  method?: string;
  headers?: HeadersInit;
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | ReadableStream | null;
  signal?: AbortSignal | null;
  redirect?: string;
}

/** Protocol request bodies are small forms: read as text (a stream is not something we send). */
function bodyText(body: GuardedFetchInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return body.toString();
  if (body instanceof ReadableStream) throw new TypeError('provider request refused: streamed body');
  return Buffer.from(body instanceof ArrayBuffer ? new Uint8Array(body) : body).toString('utf8');
}

export async function guardedFetch(input: string | URL | Request, init?: GuardedFetchInit): Promise<Response> {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const url = await providerUrl(raw);
  if ('refusal' in url) throw new TypeError(`provider request refused: ${url.refusal}`);
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
  const body = bodyText(init?.body);
  const answer = await exchange(init?.method ?? 'GET', url.href, {
    headers,
    body,
    timeoutMs: PROVIDER_TIMEOUT_MS,
    keepBytes: MAX_DOCUMENT_BYTES,
    signal: init?.signal ?? undefined,
  });
  if ('failure' in answer) throw new TypeError(`provider request failed: ${answer.failure}`);
  if (answer.truncated) throw new TypeError('provider request failed: too_large');
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, item);
  }
  return new Response(answer.status === 204 || answer.status === 304 ? null : new Uint8Array(answer.body), { status: answer.status, headers: responseHeaders });
}
