/**
 * Operations registered only by the tests, one per auth term (and one per pipeline feature), so the
 * pipeline's rules are exercised before the contexts that own those credentials exist.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { type AnyOperation, type AuthTerm, bindCollection, bindDelegated, bindResource, type PageRequest } from '@/lib/contract/operation';
import { collectionContract, delegatedContract, resourceContract } from '@/lib/contract/wire';
import { insertAuditEvent, listAuditEvents } from '@/lib/audit/audit.repo';
import { getDb, inTransaction } from '@/lib/db';

async function listTestAuditEvents({ page }: { page: PageRequest }) {
  const result = await listAuditEvents(await getDb(), { actorId: 'pagination-test' }, page);
  return { ...result, items: result.items.map((e) => ({ id: e.id, action: e.action, created_at: e.createdAt.toISOString() })) };
}

const echo = z.object({ ok: z.literal(true), actor: z.string() });

export const TERMS: Record<string, AuthTerm> = {
  session: { kind: 'session' },
  session_step_up: { kind: 'session', stepUp: { methods: ['passkey', 'password'] } },
  enrollment_token: { kind: 'enrollment_token' },
  recovery_token: { kind: 'recovery_token' },
  oauth_bearer: { kind: 'bearer', accepts: ['oauth'], scopes: ['identity.profile.read'] },
  api_key: { kind: 'bearer', accepts: ['api_key'], scopes: ['identity.developer.read'] },
  organization_bearer: { kind: 'bearer', accepts: ['oauth', 'api_key'], scopes: ['identity.organization.read'] },
  scim_token: { kind: 'scim_token' },
  client_auth: { kind: 'client_auth' },
};

export const termOperations: AnyOperation[] = Object.entries(TERMS).map(([name, auth]) =>
  bindResource(
    resourceContract({
      id: `test_${name}`,
      method: 'POST',
      path: `/test/${name}/{id}`,
      tag: 'Test',
      summary: `Test-only operation guarded by ${name}`,
      auth,
      origin: auth.kind === 'bearer' || auth.kind === 'scim_token' || auth.kind === 'client_auth' ? 'none' : 'required',
      idempotency: 'none',
      params: z.object({ id: z.string() }),
      body: z.object({ value: z.string().max(10) }),
      successStatus: 200,
      response: echo,
      testOnly: true,
      // The organization bearer term acts inside the credential's organization (tenant authorization).
      ...(name === 'organization_bearer' ? { tenant: { param: 'id', permission: 'read' } as const } : {}),
    }),
    async ({ actor }) => ({ ok: true as const, actor: actor.kind }),
  ),
);

let executions = 0;
export const idempotentExecutions = () => executions;

export const idempotentOperation = bindResource(
  resourceContract({
    id: 'test_idempotent',
    method: 'POST',
    path: '/test/idempotent',
    tag: 'Test',
    summary: 'Counts executions; requires an Idempotency-Key',
    auth: { kind: 'public' },
    origin: 'required',
    idempotency: 'required',
    body: z.object({ value: z.string(), delay_ms: z.number().int().max(2000).optional(), fail: z.enum(['client', 'server']).optional() }),
    successStatus: 201,
    response: z.object({ execution: z.number().int(), value: z.string() }),
    testOnly: true,
  }),
  async ({ body }) => {
    executions += 1;
    const execution = executions;
    if (body.delay_ms) await new Promise((resolve) => setTimeout(resolve, body.delay_ms));
    if (body.fail === 'client') throw serviceError('conflict', 'Deliberate conflict.');
    if (body.fail === 'server') throw new Error('deliberate failure');
    return { execution, value: body.value };
  },
);

export const rateLimitedOperation = bindResource(
  resourceContract({
    id: 'test_rate_limited',
    method: 'GET',
    path: '/test/rate-limited',
    tag: 'Test',
    summary: 'Spends the test_only bucket',
    auth: { kind: 'public' },
    origin: 'if-present',
    rateLimit: 'test_only',
    idempotency: 'none',
    successStatus: 200,
    response: z.object({ ok: z.literal(true) }),
    testOnly: true,
  }),
  async () => ({ ok: true as const }),
);

const auditCollectionContract = collectionContract({
  id: 'test_audit_events',
  method: 'GET',
  path: '/test/audit-events',
  tag: 'Test',
  summary: 'Keyset-paginated audit events',
  auth: { kind: 'public' },
  origin: 'if-present',
  idempotency: 'none',
  collection: 'audit_events',
  item: z.object({ id: z.string(), action: z.string(), created_at: z.string() }),
  testOnly: true,
});
export const auditCollectionOperation = bindCollection(auditCollectionContract, listTestAuditEvents);

/** The same collection over an API key: the edge adds the bearer envelope (spec, Collection envelopes). */
// The contract without its public auth term (and what that term typed), to declare it again for bearer credentials.
const { auth: _publicAuth, subjectRateLimit: _none, kind: _kind, ...auditCollectionDeclaration } = auditCollectionContract;
export const bearerAuditCollectionOperation = bindCollection(
  collectionContract({
    ...auditCollectionDeclaration,
    id: 'test_bearer_audit_events',
    path: '/test/bearer/audit-events',
    auth: { kind: 'bearer', accepts: ['api_key'], scopes: ['identity.developer.read'] },
    origin: 'none',
  }),
  listTestAuditEvents,
);

/** Declared public, but its handler expects a session: a declaration/handler mismatch. */
export const mismatchedActorOperation = bindResource(
  resourceContract({
    id: 'test_mismatched_actor',
    method: 'GET',
    path: '/test/mismatched-actor',
    tag: 'Test',
    summary: 'Narrows an anonymous actor to a session',
    auth: { kind: 'public' },
    origin: 'if-present',
    idempotency: 'none',
    successStatus: 200,
    response: z.object({ user_id: z.string() }),
    testOnly: true,
  }),
  async ({ actor }) => ({ user_id: actorOfKind(actor, 'session').userId }),
);

const retiring = (id: string, lifecycle: { deprecatedAt?: Date; sunsetAt?: Date }) =>
  bindResource(
    resourceContract({
      id,
      method: 'GET',
      path: `/test/${id}`,
      tag: 'Test',
      summary: 'A retiring operation (exercises the versioning policy)',
      auth: { kind: 'public' },
      origin: 'if-present',
      idempotency: 'none',
      successStatus: 200,
      response: z.object({ ok: z.literal(true) }),
      lifecycle,
      testOnly: true,
    }),
    async () => ({ ok: true as const }),
  );

/** One operation deprecated with a sunset (181 days' notice), one deprecated without a sunset yet. */
export const lifecycleOperations: AnyOperation[] = [
  retiring('test_sunset', { deprecatedAt: new Date('2026-01-01T00:00:00Z'), sunsetAt: new Date('2026-07-01T00:00:00Z') }),
  retiring('test_deprecated', { deprecatedAt: new Date('2026-03-01T00:00:00Z') }),
];

/**
 * Stores a note about a subject (path parameter) as an audit row, straight through the repository:
 * text and jsonb columns, so whatever the edge lets through meets Postgres' own rules.
 */
export const noteOperation = bindResource(
  resourceContract({
    id: 'test_note',
    method: 'POST',
    path: '/test/notes/{subject}',
    tag: 'Test',
    summary: 'Stores a free-text note about a subject',
    auth: { kind: 'public' },
    origin: 'required',
    idempotency: 'none',
    acceptsForm: true,
    params: z.object({ subject: z.string().max(100) }),
    query: z.object({ tag: z.string().max(100).optional() }),
    body: z.object({ note: z.string().max(1000) }),
    successStatus: 201,
    response: z.object({ id: z.string() }),
    testOnly: true,
  }),
  async ({ params, query, body, now }) => {
    const id = randomUUID();
    await insertAuditEvent(await getDb(), {
      id,
      createdAt: now,
      action: 'test.note',
      outcome: 'success',
      actorType: 'anonymous',
      subjectType: query.tag ?? 'note',
      subjectId: params.subject,
      data: { note: body.note },
    });
    return { id };
  },
);

/**
 * Idempotent operations that write (an audit row per execution, in the service's own transaction)
 * and can be told to fail after writing or to pause until the test lets them go on.
 */
export const WRITE_ACTION = 'test.idempotent.write';
export const faults: { afterWrite: 'server' | 'client' | null } = { afterWrite: null };
const paused: (() => void)[] = [];
/** Executions waiting at their pause point, oldest first; calling one lets it continue. */
export const pausedExecutions = () => paused;

async function writeRow(value: string, now: Date) {
  await inTransaction((tx) =>
    insertAuditEvent(tx, {
      id: randomUUID(),
      createdAt: now,
      action: WRITE_ACTION,
      outcome: 'success',
      actorType: 'anonymous',
      subjectType: 'test',
      subjectId: value,
      data: {},
    }),
  );
}

export const idempotentWriteOperation = bindResource(
  resourceContract({
    id: 'test_idempotent_write',
    method: 'POST',
    path: '/test/idempotent-write',
    tag: 'Test',
    summary: 'Writes a row, optionally after a pause and before a deliberate failure',
    auth: { kind: 'public' },
    origin: 'required',
    idempotency: 'required',
    body: z.object({ value: z.string(), pause: z.boolean().optional() }),
    successStatus: 201,
    response: z.object({ value: z.string(), execution: z.number().int() }),
    testOnly: true,
  }),
  async ({ body, now }) => {
    executions += 1;
    const execution = executions;
    if (body.pause) await new Promise<void>((resolve) => paused.push(resolve));
    await writeRow(body.value, now);
    if (faults.afterWrite === 'server') throw new Error('deliberate failure after the write');
    if (faults.afterWrite === 'client') throw serviceError('conflict', 'Deliberate conflict after the write.');
    return { value: body.value, execution };
  },
);

/**
 * The same for a delegated operation: its Node handler writes through getDb() (as the OIDC adapter
 * does) and answers with the status the form asks for.
 */
export const delegatedWriteOperation = bindDelegated(
  delegatedContract({
    id: 'test_delegated_write',
    method: 'POST',
    path: '/test/delegated-write',
    tag: 'Test',
    summary: 'A delegate that writes and answers the status it is asked for',
    auth: { kind: 'public' },
    origin: 'none',
    idempotency: 'required',
    acceptsJson: true,
    idempotencyCredential: 'token',
    successStatus: 200,
    response: z.object({ done: z.string() }),
    testOnly: true,
  }),
  {
    nodeHandler: async () => async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      await writeRow(form.get('value') ?? '', new Date());
      res.statusCode = Number(form.get('status') ?? '200');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ done: form.get('value') }));
    },
  },
);
