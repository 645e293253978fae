/**
 * The wire contract of an operation: what a caller must know to call it (method, path, the zod schemas
 * of its params, query, body and answer, its auth term) and what the edge enforces before any handler
 * runs. Contracts are plain data with no server code behind them, so browser code imports them too:
 * the hosted pages call operations through a client typed by these declarations (lib/contract/client.ts),
 * and the server binds a handler to each one (lib/contract/operation.ts).
 *
 * Each context declares its contracts in lib/<ctx>/<topic>.contract.ts, one export per operation, named
 * by its id. Those files import only zod, lib/contract and other contract files (dependency-cruiser).
 */
import type { z } from 'zod';
import type { Actor, BearerActor, EnrollmentActor, RecoveryActor, SessionActor } from './actor';
import type { EventType } from './events';
import type { RateLimitBucket } from './rate-limits';
import type { Scope } from './scopes';
import type { TenantRequirement } from './tenant';

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

export interface SessionTerm {
  kind: 'session';
  stepUp?: StepUpTerm;
}

export interface BearerTerm {
  kind: 'bearer';
  /** Which bearer credentials the operation accepts (the token prefix decides the kind). */
  accepts: ('oauth' | 'api_key')[];
  scopes: Scope[];
  /** `any`: one of the scopes suffices (e.g. /api/v1/me); `all`: every scope is needed. */
  scopeMode?: 'all' | 'any';
}

/** Every authentication mode the spec uses. */
export type AuthTerm =
  { kind: 'public' } | SessionTerm | { kind: 'enrollment_token' } | { kind: 'recovery_token' } | BearerTerm | { kind: 'scim_token' } | { kind: 'client_auth' };

export type AuthKind = AuthTerm['kind'];

/**
 * The actor an auth term establishes. The pipeline authenticates before any handler runs and refuses
 * every other credential, so a handler receives exactly this kind and never narrows it again.
 */
export type ActorFor<A extends AuthTerm> = A extends { kind: 'session' }
  ? SessionActor
  : A extends { kind: 'bearer' }
    ? BearerActor
    : A extends { kind: 'enrollment_token' }
      ? EnrollmentActor
      : A extends { kind: 'recovery_token' }
        ? RecoveryActor
        : A extends { kind: 'scim_token' }
          ? Extract<Actor, { kind: 'scim' }>
          : A extends { kind: 'public' }
            ? Extract<Actor, { kind: 'anonymous' }>
            : Actor;

/**
 * `required`: the Origin header must equal the service origin exactly (every unsafe browser operation).
 * `if-present`: browser GETs and navigations; a present foreign Origin or cross-site Sec-Fetch-Site is
 * refused. `none`: server-to-server surfaces.
 */
export type OriginRule = 'required' | 'if-present' | 'none';

export type Schema = z.ZodType;
export type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface ContractBase<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  A extends AuthTerm,
  T extends TenantRequirement | undefined,
> {
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path, e.g. /api/organizations/{id}/members. */
  path: string;
  summary: string;
  tag: string;
  auth: A;
  origin: OriginRule;
  /** Pre-auth bucket keyed by client address. */
  rateLimit?: RateLimitBucket;
  /** Post-parse bucket keyed by a subject taken from the input (e-mail address, account). */
  subjectRateLimit?: { bucket: RateLimitBucket; subject: (input: { body: Out<B>; query: Out<Q>; actor: ActorFor<A> }) => string };
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
   * (ASVS V7.2.4: a new authentication never leaves the previous session token alive). The value
   * names the sign-in method, under which its outcomes are counted (identity_signin_attempts_total).
   */
  startsSession?: SignInMethod;
  /**
   * Tenant authorization: which organization the operation acts in and the permission it needs. The
   * pipeline resolves it after authentication (lib/http/tenant.ts) and hands the handler `tenant`.
   */
  tenant?: T;
}

/** How a sign-in proves who it is: the `method` label of the sign-in metrics. */
export type SignInMethod = 'password' | 'passkey' | 'email_code' | 'federation';

export interface ResourceContract<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema = Schema,
  A extends AuthTerm = AuthTerm,
  T extends TenantRequirement | undefined = TenantRequirement | undefined,
> extends ContractBase<P, Q, B, A, T> {
  kind: 'resource';
  response: R;
}

export interface CollectionContract<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  I extends Schema = Schema,
  N extends string = string,
  A extends AuthTerm = AuthTerm,
  T extends TenantRequirement | undefined = TenantRequirement | undefined,
> extends ContractBase<P, Q, undefined, A, T> {
  kind: 'collection';
  /** The envelope's member holding the items: `{ <collection>: [...], has_more, next_cursor }`. */
  collection: N;
  item: I;
}

/**
 * An operation whose protocol belongs to another component (node-oidc-provider, the MCP SDK): the
 * edge applies its generic steps and hands the request over; the answer is the delegate's own.
 */
export interface DelegatedContract extends ContractBase<undefined, undefined, undefined, AuthTerm, undefined> {
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a catalogue holds contracts of every shape
export type AnyContract = ResourceContract<any, any, any, any, any, any> | CollectionContract<any, any, any, any, any, any> | DelegatedContract;

export function resourceContract<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema = Schema,
  A extends AuthTerm = AuthTerm,
  T extends TenantRequirement | undefined = undefined,
>(contract: Omit<ResourceContract<P, Q, B, R, A, T>, 'kind'>): ResourceContract<P, Q, B, R, A, T> {
  return { ...contract, kind: 'resource' };
}

export function collectionContract<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  I extends Schema = Schema,
  N extends string = string,
  A extends AuthTerm = AuthTerm,
  T extends TenantRequirement | undefined = undefined,
>(
  contract: Omit<CollectionContract<P, Q, I, N, A, T>, 'kind' | 'body' | 'acceptsForm' | 'successStatus'> & { successStatus?: number },
): CollectionContract<P, Q, I, N, A, T> {
  return { ...contract, kind: 'collection', successStatus: contract.successStatus ?? 200 };
}

export function delegatedContract(contract: Omit<DelegatedContract, 'kind'>): DelegatedContract {
  return { ...contract, kind: 'delegated' };
}

export function isUnsafe(method: HttpMethod): boolean {
  return method !== 'GET';
}

/**
 * The contracts among a module's exports (a `*.contract.ts` file also exports the schemas its
 * contracts share), keyed by operation id: the catalogue the typed clients are built from.
 */
export type ContractsOf<M> = { [K in keyof M as M[K] extends AnyContract ? K : never]: M[K] };

export function contractsOf<M extends Record<string, unknown>>(module: M): ContractsOf<M> {
  const found: Record<string, AnyContract> = {};
  for (const [name, value] of Object.entries(module)) {
    if (isContract(value)) {
      if (value.id !== name) throw new Error(`Contract ${value.id} is exported as ${name}; export each contract under its operation id.`);
      found[name] = value;
    }
  }
  return found as ContractsOf<M>;
}

function isContract(value: unknown): value is AnyContract {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return (kind === 'resource' || kind === 'collection' || kind === 'delegated') && typeof (value as { path?: unknown }).path === 'string';
}
