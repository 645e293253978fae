/**
 * An operation is declared once, as data, next to its context (lib/<ctx>/<topic>.routes.ts). The edge
 * (lib/http) derives everything else from it: the route binding, the pipeline's protections, the
 * OpenAPI document, the auth matrix and the generated contract tests. Nothing here touches HTTP.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { Actor, SessionActor } from './actor';
import type { EventType } from './events';
import type { RateLimitBucket } from './rate-limits';
import type { Scope } from './scopes';
import type { TenantActor, TenantRequirement } from './tenant';

export type { RateLimitBucket };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type StepUpMethod = 'passkey' | 'password';

/**
 * A step-up that only some requests need, decided on the parsed input (the pipeline checks it right
 * after parsing): e.g. revoking a session other than the caller's own. `says` is how the generated
 * docs name the case.
 */
export interface StepUpCondition {
  says: string;
  applies: (input: { params: unknown; body: unknown }, actor: SessionActor) => boolean;
}

export interface StepUpTerm {
  methods: StepUpMethod[];
  onlyWhen?: StepUpCondition;
  /**
   * The spec's "recent passkey step-up": a passkey step-up when the account has a passkey, a password
   * step-up otherwise (ARCHITECTURE.md, Step-up).
   */
  passkeyWhenEnrolled?: boolean;
}

/** Every authentication mode the spec uses. */
export type AuthTerm =
  | { kind: 'public' }
  | { kind: 'session'; stepUp?: StepUpTerm }
  | { kind: 'enrollment_token' }
  | { kind: 'recovery_token' }
  | {
      kind: 'bearer';
      /** Which bearer credentials the operation accepts (the token prefix decides the kind). */
      accepts: ('oauth' | 'api_key')[];
      scopes: Scope[];
      /** `any`: one of the scopes suffices (e.g. /api/v1/me); `all`: every scope is needed. */
      scopeMode?: 'all' | 'any';
    }
  | { kind: 'scim_token' }
  | { kind: 'client_auth' };

export type AuthKind = AuthTerm['kind'];

/**
 * `required`: the Origin header must equal the service origin exactly (every unsafe browser operation).
 * `if-present`: browser GETs and navigations; a present foreign Origin or cross-site Sec-Fetch-Site is
 * refused. `none`: server-to-server surfaces.
 */
export type OriginRule = 'required' | 'if-present' | 'none';

export interface Keyset {
  createdAt: Date;
  id: string;
}

/** What a collection handler returns; the edge turns it into `{ <name>, has_more, next_cursor }`. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Keyset of the last item, when more pages exist. */
  last: Keyset | null;
  /** Extra envelope members (e.g. `authentication`, `scopes` on the developer bearer surface). */
  extra?: Record<string, unknown>;
}

export interface PageRequest {
  limit: number;
  after: Keyset | null;
}

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  actor: Actor;
  requestId: string;
  now: Date;
  /** Keyed hash of the client address (never the address itself). */
  clientKey: string;
  /** Coarse device description for session lists ("Firefox on macOS"); never the raw user agent. */
  device: string;
  /** How the body came: a plain HTML form expects a redirect where a JSON caller expects JSON. */
  bodyFormat: 'json' | 'form' | 'none';
  /** Present on collection operations. */
  page: PageRequest;
  /**
   * On operations that start a session (`startsSession`): the live session the request's cookie
   * belongs to, whoever's it is, so the new sign-in can end it; null otherwise.
   */
  presentedSession: SessionActor | null;
  /** On operations that declare `tenant`: who acts inside the organization (resolved by the pipeline). */
  tenant: TenantActor | null;
  /**
   * Keyed hash of this request's device binding (user agent + network prefix), for new sessions and
   * bound consents; computed when asked, so other requests never pay for the HMAC.
   */
  deviceBinding: () => string;
}

const RESULT = Symbol('operation-result');

/** Set (sealed value + lifetime) or clear the session cookie; the edge owns its name and attributes. */
export type SessionCookieInstruction = { set: string; maxAgeSeconds: number } | { clear: true };

export interface HandlerResult<R> {
  [RESULT]: true;
  status: number;
  body: R;
  headers: Record<string, string>;
  sessionCookie?: SessionCookieInstruction;
}

/** Lets a handler choose another status than the declared one, add headers, or set the session cookie. */
export function result<R>(
  body: R,
  options: { status?: number; headers?: Record<string, string>; sessionCookie?: SessionCookieInstruction } = {},
): HandlerResult<R> {
  return { [RESULT]: true, status: options.status ?? 0, body, headers: options.headers ?? {}, sessionCookie: options.sessionCookie };
}

export function isHandlerResult(value: unknown): value is HandlerResult<unknown> {
  return typeof value === 'object' && value !== null && RESULT in value;
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

interface OperationBase<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined> {
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path, e.g. /api/organizations/{id}/members. */
  path: string;
  summary: string;
  tag: string;
  auth: AuthTerm;
  origin: OriginRule;
  /** Pre-auth bucket keyed by client address. */
  rateLimit?: RateLimitBucket;
  /** Post-parse bucket keyed by a subject taken from the input (e-mail address, account). */
  subjectRateLimit?: { bucket: RateLimitBucket; subject: (input: { body: Out<B>; query: Out<Q>; actor: Actor }) => string };
  idempotency: 'required' | 'optional' | 'none';
  params?: P;
  query?: Q;
  body?: B;
  /** Plain HTML forms may post to this operation (application/x-www-form-urlencoded). */
  acceptsForm?: boolean;
  maxBodyBytes?: number;
  successStatus: number;
  /** Further statuses the operation documents (the pipeline's own are added automatically). */
  errorStatuses?: number[];
  /**
   * Every event type the operation may write to the outbox (on some path of success). Writing one not
   * listed is refused at run time (lib/events), and a contract test runs each operation and compares.
   */
  emits?: readonly EventType[];
  /** Beyond the spec's list: marked as an extension in the OpenAPI document. */
  extension?: boolean;
  lifecycle?: { deprecatedAt?: Date; sunsetAt?: Date };
  /** Responses are never cached unless an operation says otherwise. */
  cacheControl?: string;
  /** Only for tests; never registered in the public registry. */
  testOnly?: boolean;
  /**
   * The operation signs in (issues a new session): the pipeline resolves the session cookie the
   * request presents and hands it to the handler as `presentedSession`, which the new sign-in ends
   * (ASVS V7.2.4: a new authentication never leaves the previous session token alive).
   */
  startsSession?: boolean;
  /**
   * Tenant authorization: which organization the operation acts in and the permission it needs. The
   * pipeline resolves it after authentication (lib/http/tenant.ts) and hands the handler `tenant`.
   */
  tenant?: TenantRequirement;
}

export interface ResourceOperation<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  R extends Schema,
> extends OperationBase<P, Q, B> {
  kind: 'resource';
  response: R;
  handler: (ctx: HandlerContext<Out<P>, Out<Q>, Out<B>>) => Promise<z.input<R> | HandlerResult<z.input<R>>>;
}

export interface CollectionOperation<P extends Schema | undefined, Q extends Schema | undefined, I extends Schema> extends OperationBase<P, Q, undefined> {
  kind: 'collection';
  collection: string;
  item: I;
  handler: (ctx: HandlerContext<Out<P>, Out<Q>, undefined>) => Promise<Page<z.input<I>>>;
}

export type NodeRequestHandler = (req: IncomingMessage, res: ServerResponse) => unknown;
/** A Web-standard delegate (the MCP SDK's transport): the request (body intact) in, the answer out. */
export type WebRequestHandler = (request: Request, context: { requestId: string; now: Date }) => Promise<Response>;

/**
 * The delegate itself: a Node (req, res) handler (node-oidc-provider's Koa app), or a Web one
 * (Request -> Response), which runs on the request as it is, without the Node bridge.
 */
export type Delegate =
  { nodeHandler: () => Promise<NodeRequestHandler>; webHandler?: never } | { webHandler: () => Promise<WebRequestHandler>; nodeHandler?: never };

/**
 * An operation whose protocol logic belongs to another component (node-oidc-provider, the MCP SDK).
 * The pipeline applies its generic steps (request id, version, body size, client rate limit, Origin
 * rule), then runs the handler on the request; it authenticates and answers in its own wire format.
 */
interface DelegatedOperationBase extends OperationBase<undefined, undefined, undefined> {
  kind: 'delegated';
  /** Documents the success body in OpenAPI; the delegate's answer is passed through unchanged. */
  response: z.ZodType;
  /** Protocol parameters (query for GET, form body otherwise) the service fills in when absent. */
  defaultParameters?: () => Record<string, string>;
  /**
   * The spec's JSON form of a form-encoded protocol request: a JSON object body is handed to the
   * delegate as the equivalent form. Such a request needs an Idempotency-Key when the operation says
   * `idempotency: 'required'` (form requests from standard clients never send one).
   */
  acceptsJson?: boolean;
  /** The form field carrying the credential an Idempotency-Key belongs to (stored only as a keyed hash). */
  idempotencyCredential?: string;
  /**
   * Shares its method and path with operation `of`, and serves the requests whose form body `when`
   * selects (e.g. an OIDC form-POST authorization request next to the consent decision).
   */
  variant?: { of: string; when: (form: URLSearchParams) => boolean };
}

export type DelegatedOperation = DelegatedOperationBase & Delegate;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds operations of every shape
export type AnyOperation = ResourceOperation<any, any, any, any> | CollectionOperation<any, any, any> | DelegatedOperation;

export function defineDelegated(op: Omit<DelegatedOperationBase, 'kind'> & Delegate): DelegatedOperation {
  return { ...op, kind: 'delegated' };
}

export function defineOperation<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema = Schema,
>(op: Omit<ResourceOperation<P, Q, B, R>, 'kind'>): ResourceOperation<P, Q, B, R> {
  return { ...op, kind: 'resource' };
}

export function defineCollection<P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, I extends Schema = Schema>(
  op: Omit<CollectionOperation<P, Q, I>, 'kind' | 'body' | 'acceptsForm' | 'successStatus'> & { successStatus?: number },
): CollectionOperation<P, Q, I> {
  return { ...op, kind: 'collection', successStatus: op.successStatus ?? 200 };
}

export function isUnsafe(method: HttpMethod): boolean {
  return method !== 'GET';
}
