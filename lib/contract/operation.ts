/**
 * An operation is declared once, as data, next to its context (lib/<ctx>/<topic>.routes.ts). The edge
 * (lib/http) derives everything else from it: the route binding, the pipeline's protections, the
 * OpenAPI document, the auth matrix and the generated contract tests. Nothing here touches HTTP.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { SessionActor } from './actor';
import type { RateLimitBucket } from './rate-limits';
import type { TenantActor, TenantRequirement } from './tenant';
import type { ActorFor, AuthTerm, CollectionContract, DelegatedContract, Out, ResourceContract, Schema } from './wire';

export type { RateLimitBucket };
export type { ActorFor, AuthKind, AuthTerm, HttpMethod, OriginRule, StepUpCondition, StepUpMethod, StepUpTerm } from './wire';
export { isUnsafe } from './wire';

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
}

export interface PageRequest {
  limit: number;
  after: Keyset | null;
}

/**
 * What a handler receives. Typed by the operation's declaration: the actor its auth term establishes
 * and, when it declares `tenant`, the tenant the pipeline resolved (null otherwise). The pipeline
 * guarantees both before the handler runs, so handlers never narrow them again.
 */
export interface HandlerContext<P, Q, B, A extends AuthTerm = AuthTerm, T extends TenantRequirement | undefined = TenantRequirement | undefined> {
  params: P;
  query: Q;
  body: B;
  actor: ActorFor<A>;
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
  tenant: T extends TenantRequirement ? TenantActor : null;
  /**
   * Keyed hash of this request's device binding (user agent + network prefix), for new sessions and
   * bound consents; computed when asked, so other requests never pay for the HMAC.
   */
  deviceBinding: () => string;
  /**
   * A cookie the request presents, by name (null when absent). For the few operations that bind a
   * flow to the browser that started it (a federated sign-in's transaction); never the session's.
   */
  cookie: (name: string) => string | null;
  /** The request's conditional headers (RFC 9110 §13), as sent: for operations that answer with ETags. */
  preconditions: { ifMatch: string | null; ifNoneMatch: string | null };
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

export type ResourceHandler<P, Q, B, R extends Schema, A extends AuthTerm, T extends TenantRequirement | undefined> = (
  ctx: HandlerContext<Out<P>, Out<Q>, Out<B>, A, T>,
) => Promise<z.input<R> | HandlerResult<z.input<R>>>;

export type CollectionHandler<P, Q, I extends Schema, A extends AuthTerm, T extends TenantRequirement | undefined> = (
  ctx: HandlerContext<Out<P>, Out<Q>, undefined, A, T>,
) => Promise<Page<z.input<I>>>;

/** The handler a resource contract takes (for a handler shared by several contracts). */
export type ResourceHandlerOf<C> = C extends ResourceContract<infer P, infer Q, infer B, infer R, infer A, infer T> ? ResourceHandler<P, Q, B, R, A, T> : never;

/** A resource contract with its handler bound: what the registry holds and the pipeline runs. */
export interface ResourceOperation<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema = Schema,
  A extends AuthTerm = AuthTerm,
  T extends TenantRequirement | undefined = TenantRequirement | undefined,
> extends ResourceContract<P, Q, B, R, A, T> {
  handler: ResourceHandler<P, Q, B, R, A, T>;
}

export interface CollectionOperation<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  I extends Schema = Schema,
  N extends string = string,
  A extends AuthTerm = AuthTerm,
  T extends TenantRequirement | undefined = TenantRequirement | undefined,
> extends CollectionContract<P, Q, I, N, A, T> {
  handler: CollectionHandler<P, Q, I, A, T>;
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
export type DelegatedOperation = DelegatedContract & Delegate;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds operations of every shape
export type AnyOperation = ResourceOperation<any, any, any, any, any, any> | CollectionOperation<any, any, any, any, any, any> | DelegatedOperation;

/** The server's half of a resource operation: its contract (lib/<ctx>/<topic>.contract.ts) and the handler. */
export function bindResource<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  R extends Schema,
  A extends AuthTerm,
  T extends TenantRequirement | undefined,
>(contract: ResourceContract<P, Q, B, R, A, T>, handler: ResourceHandler<P, Q, B, R, A, T>): ResourceOperation<P, Q, B, R, A, T> {
  return { ...contract, handler };
}

export function bindCollection<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  I extends Schema,
  N extends string,
  A extends AuthTerm,
  T extends TenantRequirement | undefined,
>(contract: CollectionContract<P, Q, I, N, A, T>, handler: CollectionHandler<P, Q, I, A, T>): CollectionOperation<P, Q, I, N, A, T> {
  return { ...contract, handler };
}

export function bindDelegated(contract: DelegatedContract, delegate: Delegate): DelegatedOperation {
  return { ...contract, ...delegate } as DelegatedOperation;
}
