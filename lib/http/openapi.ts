/**
 * OpenAPI 3.1 generated from the operation registry: the one source of the documented interface.
 * Security requirements, protections and error statuses are derived from the same declarations the
 * pipeline enforces, so the document cannot drift from the behaviour.
 */
import { z } from 'zod';
import { ERROR_CATALOGUE } from '@/lib/contract/errors';
import { isUnsafe, type AnyOperation, type AuthTerm } from '@/lib/contract/operation';
import { SCOPE_TABLE } from '@/lib/oidc';
import { MAX_PAGE_LIMIT } from './cursor';
import { RATE_LIMIT_BUCKETS } from '@/lib/contract/rate-limits';
import { buildScopeTable } from './scope-table';
import { SCIM_MEDIA_TYPE, successMediaType, surfaceOf } from './surfaces';
import { CURRENT_API_VERSION, DEPRECATION_NOTICE_DAYS } from './versioning';

type Json = Record<string, unknown>;

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return explicitEnumRecords(rest) as Json;
}

/**
 * zod writes a record keyed by an enum (z.record(z.enum([...]), v)) as `propertyNames` + `required`
 * with no `properties`: every key is required yet none is described, which readers and generators
 * of clients handle badly. Such a record is an object with exactly those properties: say so.
 */
function explicitEnumRecords(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(explicitEnumRecords);
  if (typeof node !== 'object' || node === null) return node;
  const walked = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, explicitEnumRecords(value)])) as Json;
  const keys = (walked.propertyNames as { enum?: unknown[] } | undefined)?.enum;
  if (walked.type !== 'object' || walked.properties || !keys || typeof walked.additionalProperties !== 'object') return walked;
  const { propertyNames: _names, additionalProperties: value, ...rest } = walked;
  return { ...rest, properties: Object.fromEntries(keys.map((key) => [String(key), value])), additionalProperties: false };
}

export function securityFor(term: AuthTerm): Json[] {
  switch (term.kind) {
    case 'public':
      return [];
    case 'session':
      return [{ sessionCookie: [] }];
    case 'enrollment_token':
      return [{ enrollmentToken: [] }];
    case 'recovery_token':
      return [{ recoveryToken: [] }];
    case 'bearer':
      return term.accepts.map((kind) => (kind === 'oauth' ? { oauth2: term.scopes } : { apiKey: term.scopes }));
    case 'scim_token':
      return [{ scimToken: [] }];
    case 'client_auth':
      return [{ clientAuthentication: [] }, {}];
  }
}

/** Statuses the pipeline itself can produce for this operation, plus the ones it documents. */
export function statusesFor(op: AnyOperation): number[] {
  const statuses = new Set<number>([op.successStatus, 400, ...(op.errorStatuses ?? [])]);
  if (op.auth.kind !== 'public') statuses.add(401);
  if (op.origin !== 'none' || op.auth.kind === 'bearer' || (op.auth.kind === 'session' && (isUnsafe(op.method) || op.auth.stepUp))) statuses.add(403);
  if (op.rateLimit || op.subjectRateLimit) statuses.add(429);
  // Every unsafe request's body is read against the size limit (step 3), with or without a schema.
  if (isUnsafe(op.method)) statuses.add(413);
  if (op.kind === 'resource' && op.body) statuses.add(415);
  if (op.idempotency !== 'none') {
    statuses.add(409);
    statuses.add(422);
  }
  return [...statuses].sort((a, b) => a - b);
}

function parameters(op: AnyOperation): Json[] {
  const list: Json[] = [{ $ref: '#/components/parameters/ApiVersion' }];
  const fromObject = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const js = jsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(js.properties ?? {})) {
      list.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema: property });
    }
  };
  fromObject(op.params, 'path');
  // Every {param} of the path is a parameter, declared by a schema or not (delegated operations have none).
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
    if (!list.some((p) => p.name === name && p.in === 'path'))
      list.push({ name, in: 'path', required: true, schema: { type: 'string' }, description: 'Opaque identifier' });
  }
  fromObject(op.query, 'query');
  if (op.kind === 'collection') list.push({ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Cursor' });
  if (op.idempotency !== 'none') {
    const name =
      op.kind === 'delegated' && op.acceptsJson ? 'IdempotencyKeyForJson' : op.idempotency === 'required' ? 'IdempotencyKeyRequired' : 'IdempotencyKey';
    list.push({ $ref: `#/components/parameters/${name}` });
  }
  return list;
}

function successSchema(op: AnyOperation): Json {
  if (op.kind === 'collection') {
    // A bearer collection's page also names the credential it was read with (bearer-envelope.ts).
    const bearer = op.auth.kind === 'bearer' ? op.auth : null;
    return {
      type: 'object',
      required: [op.collection, 'has_more', 'next_cursor', ...(bearer ? ['authentication', 'scopes'] : [])],
      properties: {
        [op.collection]: { type: 'array', items: jsonSchema(op.item as z.ZodType, 'output') },
        has_more: { type: 'boolean' },
        next_cursor: { type: ['string', 'null'] },
        ...(bearer
          ? {
              authentication: { type: 'string', enum: bearer.accepts, description: 'The kind of credential the page was read with.' },
              scopes: { type: 'array', items: { type: 'string' }, description: 'The scopes that credential holds.' },
            }
          : {}),
      },
    };
  }
  return jsonSchema(op.response as z.ZodType, 'output');
}

const REQUEST_ID = { 'X-Request-ID': { $ref: '#/components/headers/RequestId' } };
const isRedirect = (status: number) => status >= 300 && status < 400;
/** A delegated operation whose success is a redirect is a browser navigation (authorization, resume). */
const isNavigation = (op: AnyOperation) => op.kind === 'delegated' && isRedirect(op.successStatus);

/**
 * The error formats, by surface: the API answers problem documents; a delegated (OAuth) operation
 * answers the provider's OAuth error JSON, or, for a browser navigation, an error page for the person,
 * and either may meet a problem document from the pipeline's own steps before the hand-over.
 */
function errorResponseName(op: AnyOperation, status: number): string {
  if (surfaceOf(op.path) === 'scim') return `ScimError${status}`;
  // The delegate answers 400 and what the operation declares; other statuses come from the pipeline.
  const fromDelegate = op.kind === 'delegated' && (status === 400 || (op.errorStatuses ?? []).includes(status));
  if (!fromDelegate) return `Error${status}`;
  return `${isNavigation(op) ? 'NavigationError' : 'ProtocolError'}${status}`;
}

function responsesOf(op: AnyOperation): Json {
  const responses: Record<string, Json> = {};
  for (const status of statusesFor(op)) {
    if (status === 304) {
      responses['304'] = {
        description: 'Not modified: If-None-Match names the current version',
        headers: { ETag: { $ref: '#/components/headers/ETag' }, ...REQUEST_ID },
      };
    } else if (status === 204) {
      responses['204'] = { description: 'Done (no content)', headers: REQUEST_ID };
    } else if (isRedirect(status)) {
      responses[String(status)] = {
        description: status === op.successStatus ? 'Redirect (the outcome)' : 'Redirect',
        headers: { Location: { $ref: '#/components/headers/Location' }, ...REQUEST_ID },
      };
    } else if (status === op.successStatus) {
      responses[String(status)] = {
        description: 'Success',
        headers: REQUEST_ID,
        content: { [successMediaType(surfaceOf(op.path))]: { schema: successSchema(op) } },
      };
    } else {
      responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(op, status)}` };
    }
  }
  // Discovery advertises response_mode=form_post (OAuth 2.0 Form Post Response Mode): the authorization
  // response is then a page that posts it to the client, not a redirect.
  if (isNavigation(op) && op.method === 'GET') {
    responses['200'] = {
      description: 'With response_mode=form_post: a page that posts the authorization response to the client',
      headers: REQUEST_ID,
      content: { 'text/html': { schema: { type: 'string' } } },
    };
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

function operationObject(op: AnyOperation): Json {
  const body =
    op.kind === 'resource' && op.body
      ? {
          requestBody: {
            required: true,
            content: {
              ...(surfaceOf(op.path) === 'scim' ? { [SCIM_MEDIA_TYPE]: { schema: jsonSchema(op.body as z.ZodType, 'input') } } : {}),
              'application/json': { schema: jsonSchema(op.body as z.ZodType, 'input') },
              ...(op.acceptsForm ? { 'application/x-www-form-urlencoded': { schema: jsonSchema(op.body as z.ZodType, 'input') } } : {}),
            },
          },
        }
      : {};
  return {
    operationId: op.id,
    summary: op.summary,
    tags: [op.tag],
    security: securityFor(op.auth),
    parameters: parameters(op),
    ...body,
    responses: responsesOf(op),
    'x-auth': op.auth.kind,
    'x-origin-rule': op.origin,
    'x-csrf': op.auth.kind === 'session' && isUnsafe(op.method),
    ...(op.auth.kind === 'session' && op.auth.stepUp ? { 'x-step-up': op.auth.stepUp.methods } : {}),
    ...(op.rateLimit ? { 'x-rate-limit': op.rateLimit } : {}),
    'x-idempotency': op.idempotency,
    ...(op.emits ? { 'x-emits': op.emits } : {}),
    ...(op.extension ? { 'x-extension': true } : {}),
    ...(op.lifecycle?.deprecatedAt ? { deprecated: true } : {}),
  };
}

const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request, pagination or API version',
  401: 'Missing or invalid credential',
  403: 'Origin, CSRF, scope, step-up or tenant refusal',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict (or an idempotent request still in flight)',
  412: 'Precondition failed: If-Match does not name the current version',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Idempotency-Key reused with a different body',
  429: 'Rate limited (Retry-After; RateLimit-Policy and RateLimit for per-client limits only)',
  500: 'Internal error',
  502: 'Upstream provider failed',
  503: 'Service or provider unavailable',
  504: 'Upstream provider timed out',
};

const PROBLEM = { 'application/problem+json': { schema: PROBLEM_REF } };
const BEFORE_HAND_OVER = 'or a problem document when the pipeline refused before the hand-over';

/** Error response components by surface (see errorResponseName): their media types and a note. */
const ERROR_SURFACES: Record<string, { content: Json; note: string }> = {
  Error: { content: PROBLEM, note: '' },
  ProtocolError: {
    content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } }, ...PROBLEM },
    note: ` (the OAuth error, ${BEFORE_HAND_OVER})`,
  },
  ScimError: {
    content: { [SCIM_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/ScimError' } } },
    note: ' (the SCIM error schema, RFC 7644 section 3.12)',
  },
  NavigationError: { content: { 'text/html': { schema: { type: 'string' } }, ...PROBLEM }, note: ` (an error page for the person, ${BEFORE_HAND_OVER})` },
};

function errorResponse(name: string): Json {
  const [, surface, status] = /^(\D+)(\d+)$/.exec(name)!;
  const { content, note } = ERROR_SURFACES[surface!]!;
  return { description: `${STATUS_DESCRIPTIONS[Number(status)] ?? 'Error'}${note}`, headers: REQUEST_ID, content };
}

/** Components nothing refers to are left out: the document describes what the registry serves today. */
function referencedOnly(components: Record<string, Json>, paths: Json): Record<string, Json> {
  const used = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !used.has(value)) {
        used.add(value);
        const [, kind, name] = value.split('/').slice(1);
        visit(components[kind!]?.[name!]);
      } else visit(value);
    }
  };
  visit(paths);
  const schemes = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item as Record<string, { security?: Json[] }>).flatMap((op) => (op.security ?? []).flatMap(Object.keys)),
    ),
  );
  return Object.fromEntries(
    Object.entries(components).map(([kind, entries]) => [
      kind,
      Object.fromEntries(
        Object.entries(entries).filter(([name]) => (kind === 'securitySchemes' ? schemes.has(name) : used.has(`#/components/${kind}/${name}`))),
      ),
    ]),
  );
}

/** Every component the document may use; referencedOnly keeps those the operations refer to. */
function componentCatalogue(responses: Json): Record<string, Json> {
  return {
    schemas: {
      Problem: {
        type: 'object',
        required: ['type', 'title', 'status', 'code', 'request_id'],
        properties: {
          type: { type: 'string' },
          title: { type: 'string' },
          status: { type: 'integer' },
          detail: { type: 'string' },
          code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
          request_id: { type: 'string' },
          errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
          step_up: { type: 'object', properties: { methods: { type: 'array', items: { type: 'string' } }, max_age_seconds: { type: 'integer' } } },
        },
      },
      ScimError: {
        type: 'object',
        description: 'RFC 7644 section 3.12 error response: every failure under /scim/v2',
        required: ['schemas', 'status'],
        properties: {
          schemas: { type: 'array', items: { type: 'string', const: 'urn:ietf:params:scim:api:messages:2.0:Error' } },
          status: { type: 'string', description: 'The HTTP status, as a string' },
          scimType: { type: 'string' },
          detail: { type: 'string' },
        },
      },
      OAuthError: {
        type: 'object',
        description: 'RFC 6749 section 5.2 error response, as node-oidc-provider answers it',
        required: ['error'],
        properties: { error: { type: 'string' }, error_description: { type: 'string' } },
      },
    },
    responses,
    headers: {
      RequestId: { description: 'Correlation id, on every response', schema: { type: 'string' } },
      Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
      ETag: { description: "The resource's current version (strong)", schema: { type: 'string' } },
    },
    parameters: {
      ApiVersion: { name: 'X-Service-API-Version', in: 'header', required: false, schema: { type: 'string', enum: [CURRENT_API_VERSION] } },
      IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } },
      IdempotencyKeyRequired: { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', maxLength: 255 } },
      IdempotencyKeyForJson: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', maxLength: 255 },
        description: 'Required with a JSON body; optional for the standard form-encoded protocol request.',
      },
      Limit: { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: MAX_PAGE_LIMIT } },
      Cursor: { name: 'cursor', in: 'query', required: false, schema: { type: 'string' }, description: 'Opaque; pass next_cursor unchanged.' },
    },
    securitySchemes: {
      sessionCookie: {
        type: 'apiKey',
        in: 'cookie',
        name: '__Host-session',
        description: 'Sealed session cookie (named `session` on plain-http localhost). Unsafe methods also need X-CSRF-Token.',
      },
      enrollmentToken: { type: 'apiKey', in: 'header', name: 'X-Enrollment-Token' },
      recoveryToken: { type: 'apiKey', in: 'header', name: 'X-Recovery-Token' },
      oauth2: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: '/oauth/authorize',
            tokenUrl: '/oauth/token',
            refreshUrl: '/oauth/token',
            scopes: Object.fromEntries(SCOPE_TABLE.map((s) => [s.scope, s.description])),
          },
        },
      },
      apiKey: { type: 'http', scheme: 'bearer', description: 'API key (idk_ prefix), displayed once, stored as a hash.' },
      scimToken: { type: 'http', scheme: 'bearer', description: 'Organization-bound SCIM token (scim_ prefix).' },
      clientAuthentication: { type: 'http', scheme: 'basic', description: 'Registered client credentials; public clients use none with PKCE S256.' },
    },
  };
}

export function buildOpenApiDocument(operations: readonly AnyOperation[]): Json {
  const paths: Record<string, Json> = {};
  const sorted = [...operations].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const isVariant = (op: AnyOperation) => op.kind === 'delegated' && op.variant !== undefined;
  for (const op of sorted) {
    paths[op.path] ??= {};
    if (!isVariant(op)) paths[op.path]![op.method.toLowerCase()] = operationObject(op);
  }
  // A variant shares its method and path with another operation: documented inside that one, as an
  // extension, so its responses are written out (linters count no $ref use inside extensions).
  for (const op of sorted.filter(isVariant)) {
    const main = paths[op.path]![op.method.toLowerCase()] as Json;
    const variant = operationObject(op);
    variant.responses = Object.fromEntries(
      Object.entries(variant.responses as Record<string, Json>).map(([status, response]) => [
        status,
        typeof response.$ref === 'string' ? errorResponse(response.$ref.split('/').pop()!) : response,
      ]),
    );
    main['x-variants'] = [...((main['x-variants'] as Json[] | undefined) ?? []), variant];
  }
  const errorNames = new Set(
    operations
      .filter((op) => !isVariant(op))
      .flatMap((op) =>
        statusesFor(op)
          .filter((status) => status !== op.successStatus && !isRedirect(status))
          .map((status) => errorResponseName(op, status)),
      ),
  );
  const responses = Object.fromEntries([...errorNames].sort().map((name) => [name, errorResponse(name)]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Identity Service API',
      version: CURRENT_API_VERSION,
      description: `Generated from the operation registry. Deprecations are announced at least ${DEPRECATION_NOTICE_DAYS} days ahead (see /docs/versioning).`,
    },
    servers: [{ url: '/' }],
    paths,
    components: referencedOnly(componentCatalogue(responses), paths),
    'x-scope-table': buildScopeTable(operations),
    'x-rate-limit-buckets': Object.fromEntries(
      Object.entries(RATE_LIMIT_BUCKETS)
        .filter(([name]) => name !== 'test_only')
        .map(([name, b]) => [name, { limit: b.limit, window_seconds: b.windowSeconds, description: b.description }]),
    ),
  };
}
