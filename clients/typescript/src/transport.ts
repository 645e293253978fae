/**
 * One HTTP exchange with the service, driven by an operation's generated descriptor: the path filled
 * in, the declared query parameters, the JSON body, the bearer credential, the pinned API version and
 * an Idempotency-Key where the operation takes one. Only the global fetch: no runtime dependencies.
 */
import { API_VERSION } from './catalogue.js';
import { isProblemDocument, ProblemError, UnexpectedResponseError } from './problem.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What the generator writes for each operation (src/operations.ts). */
export interface OperationDescriptor {
  /** The service's operation id (docs/openapi.json). */
  readonly id: string;
  readonly method: HttpMethod;
  /** OpenAPI-style path, e.g. /api/v1/organizations/{id}/members. */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly query: readonly string[];
  readonly body: boolean;
  readonly idempotency: 'required' | 'optional' | 'none';
  /** The envelope's array member, on collections. */
  readonly collection?: string;
}

export interface ClientOptions {
  /** The service's origin, e.g. https://id.example.com. Plain http is accepted on loopback only. */
  baseUrl: string | URL;
  /**
   * An API key (idk_…) or an OAuth access token, or a function that returns the current one (called
   * before each request, so a refreshed token is picked up).
   */
  credential: string | (() => string | Promise<string>);
  /** Another fetch (tests, instrumentation, a proxy agent); the global one by default. */
  fetch?: typeof fetch;
  /** Headers sent with every request (e.g. a User-Agent naming your service). */
  headers?: Record<string, string>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface IdempotentRequestOptions extends RequestOptions {
  /**
   * The operation's Idempotency-Key. Without one the client makes a random key for this call; pass
   * your own and reuse it to retry a call whose answer you did not get (the service then answers the
   * first outcome again instead of acting twice).
   */
  idempotencyKey?: string;
}

/** `limit` (1-100, default 100) and `cursor` (a page's next_cursor, unchanged) of every collection. */
export interface PageInput {
  limit?: number;
  cursor?: string | null;
}

/**
 * A collection page as the wire carries it: the items under the collection's own name, then
 * `has_more` and `next_cursor`; bearer collections also name the credential kind and its scopes.
 */
export type Envelope<K extends string, Item> = { [Key in K]: Item[] } & {
  has_more: boolean;
  next_cursor: string | null;
  authentication?: string;
  scopes?: string[];
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export class Transport {
  readonly #origin: string;
  readonly #credential: ClientOptions['credential'];
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;

  constructor(options: ClientOptions) {
    const url = new URL(options.baseUrl);
    // A bearer credential must not cross the network in clear text.
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
      throw new TypeError(`baseUrl must use https (plain http only on loopback): ${url.origin}`);
    }
    this.#origin = url.origin;
    this.#credential = options.credential;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#headers = options.headers ?? {};
  }

  async call<T>(op: OperationDescriptor, input: object = {}, options: IdempotentRequestOptions = {}): Promise<T> {
    const values = input as Record<string, unknown>;
    const headers: Record<string, string> = {
      ...this.#headers,
      ...options.headers,
      accept: 'application/json, application/problem+json',
      authorization: `Bearer ${await this.#bearer()}`,
      'x-service-api-version': API_VERSION,
    };
    if (op.body) headers['content-type'] = 'application/json';
    const idempotencyKey = idempotencyKeyFor(op, options.idempotencyKey);
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;

    const response = await this.#fetch(`${this.#origin}${pathOf(op, values)}${queryOf(op, values)}`, {
      method: op.method,
      headers,
      body: op.body ? JSON.stringify(values.body) : undefined,
      signal: options.signal,
      redirect: 'error',
    });
    return (await answerOf(response)) as T;
  }

  async #bearer(): Promise<string> {
    const credential = typeof this.#credential === 'function' ? await this.#credential() : this.#credential;
    if (!credential) throw new TypeError('No credential: pass an API key or an OAuth access token');
    return credential;
  }
}

function pathOf(op: OperationDescriptor, values: Record<string, unknown>): string {
  return op.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`${op.id}: the path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

function queryOf(op: OperationDescriptor, values: Record<string, unknown>): string {
  const names = op.collection ? [...op.query, 'limit', 'cursor'] : op.query;
  const search = new URLSearchParams();
  for (const name of names) {
    const value = values[name];
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function idempotencyKeyFor(op: OperationDescriptor, given: string | undefined): string | null {
  if (op.idempotency === 'none') {
    if (given !== undefined) throw new TypeError(`${op.id} takes no Idempotency-Key`);
    return null;
  }
  if (given !== undefined) return given;
  return op.idempotency === 'required' ? crypto.randomUUID() : null;
}

async function answerOf(response: Response): Promise<unknown> {
  const contentType = response.headers.get('content-type');
  const requestId = response.headers.get('x-request-id');
  if (response.status === 204) return undefined;
  const isJson = /^application\/(problem\+)?json\b/i.test(contentType ?? '');
  const body: unknown = isJson ? await response.json().catch(() => undefined) : undefined;
  if (response.ok && isJson && body !== undefined) return body;
  if (!response.ok && isProblemDocument(body)) throw new ProblemError(body, response.headers);
  if (!response.bodyUsed) await response.body?.cancel();
  throw new UnexpectedResponseError(response.status, contentType, requestId);
}
