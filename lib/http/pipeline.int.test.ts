import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordAudit } from '@/lib/audit';
import type { Actor } from '@/lib/contract/actor';
import type { TenantPolicies } from '@/lib/contract/tenant';
import { getDb } from '@/lib/db';
import { call, ORIGIN, problemOf } from '@/tests/helpers/http';
import { withEnv } from '@/tests/setup/state';
import {
  auditCollectionOperation,
  bearerAuditCollectionOperation,
  idempotentExecutions,
  idempotentOperation,
  mismatchedActorOperation,
  rateLimitedOperation,
  termOperations,
} from '@/tests/helpers/test-operations';
import { csrfTokenFor } from '@/lib/sessions';
import { credentialStores, type CredentialStores } from './credentials';

const termOp = (name: string) => termOperations.find((op) => op.id === `test_${name}`)!;
const original: CredentialStores = { ...credentialStores };
afterEach(() => Object.assign(credentialStores, original));

const NOW = new Date('2026-11-22T10:00:30Z');
const at = (iso: string) => () => new Date(iso);
const NO_POLICIES: TenantPolicies = {
  sessionMaxAgeSeconds: null,
  sessionIdleTimeoutSeconds: null,
  stepUpMaxAgeSeconds: null,
  signinAllowedMethods: null,
  sessionBinding: false,
  approvalsRequiredFor: [],
};

describe('body limits and media types', () => {
  it('refuses a body over the limit with 413 before reading it whole', async () => {
    const response = await call(idempotentOperation, {
      headers: { origin: ORIGIN, 'idempotency-key': 'k-large' },
      rawBody: JSON.stringify({ value: 'x'.repeat(70 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect((await problemOf(response)).code).toBe('payload_too_large');
  });

  // ASVS V3.5.2
  it('refuses a non-JSON body with 415 and malformed JSON with 400', async () => {
    const wrongType = await call(idempotentOperation, {
      headers: { origin: ORIGIN, 'idempotency-key': 'k-type', 'content-type': 'text/plain' },
      rawBody: 'value=x',
    });
    expect(wrongType.status).toBe(415);
    const malformed = await call(idempotentOperation, { headers: { origin: ORIGIN, 'idempotency-key': 'k-json' }, rawBody: '{"value":' });
    expect(malformed.status).toBe(400);
    expect((await problemOf(malformed)).code).toBe('invalid_request');
  });
});

describe('rate limits', () => {
  // ASVS V2.4.1
  it('answers 429 with Retry-After and RateLimit headers once the bucket is spent, and resets with the window', async () => {
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 4; i++) {
      last = await call(rateLimitedOperation, { now: at('2026-11-22T10:00:30Z') });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers.get('retry-after')).toBe('30');
    expect(last!.headers.get('ratelimit-policy')).toBe('"test_only";q=3;w=60');
    expect(last!.headers.get('ratelimit')).toBe('"test_only";r=0;t=30');
    expect((await problemOf(last!)).code).toBe('rate_limited');
    const nextWindow = await call(rateLimitedOperation, { now: at('2026-11-22T10:01:00Z') });
    expect(nextWindow.status).toBe(200);
    expect(nextWindow.headers.get('ratelimit')).toBe('"test_only";r=2;t=60');
  });

  it('keys the bucket by client, not by anything the client chooses', async () => {
    const clock = at('2026-11-22T11:00:00Z');
    for (let i = 0; i < 3; i++) await call(rateLimitedOperation, { now: clock, headers: { 'x-forwarded-for': '203.0.113.7' } });
    const otherClient = await call(rateLimitedOperation, { now: clock, headers: { 'x-forwarded-for': '203.0.113.8' } });
    expect(otherClient.status).toBe(200);
    const sameClient = await call(rateLimitedOperation, { now: clock, headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(sameClient.status).toBe(429);
  });

  it('scales every bucket by RATE_LIMIT_SCALE and never switches limits off', async () => {
    const restore = withEnv({ RATE_LIMIT_SCALE: '2' });
    try {
      const clock = at('2026-11-22T12:00:00Z');
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await call(rateLimitedOperation, { now: clock, headers: { 'x-forwarded-for': '198.51.100.1' } })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    } finally {
      restore();
    }
  });
});

describe('idempotency', () => {
  const send = (key: string | null, body: Record<string, unknown>) =>
    call(idempotentOperation, { headers: { origin: ORIGIN, ...(key ? { 'idempotency-key': key } : {}) }, body });

  it('requires the key where the operation says so', async () => {
    const response = await send(null, { value: 'a' });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toBe('idempotency_key_required');
  });

  it('replays the first response for the same key and body without running the handler again', async () => {
    const first = await send('key-replay', { value: 'a' });
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const executions = idempotentExecutions();
    const replay = await send('key-replay', { value: 'a' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(firstBody);
    expect(idempotentExecutions()).toBe(executions);
  });

  it('answers 422 for the same key with a different body', async () => {
    await send('key-different', { value: 'a' });
    const response = await send('key-different', { value: 'b' });
    expect(response.status).toBe(422);
    expect((await problemOf(response)).code).toBe('idempotency_key_reused');
  });

  it('answers 409 while the first request is still in flight', async () => {
    const slow = send('key-in-flight', { value: 'a', delay_ms: 400 });
    await new Promise((r) => setTimeout(r, 100));
    const concurrent = await send('key-in-flight', { value: 'a', delay_ms: 400 });
    expect(concurrent.status).toBe(409);
    expect((await problemOf(concurrent)).code).toBe('idempotency_request_in_flight');
    expect((await slow).status).toBe(201);
  });

  it('replays a client error, but frees the key after a server failure', async () => {
    const conflict = await send('key-client-error', { value: 'a', fail: 'client' });
    expect(conflict.status).toBe(409);
    const executions = idempotentExecutions();
    expect((await send('key-client-error', { value: 'a', fail: 'client' })).status).toBe(409);
    expect(idempotentExecutions()).toBe(executions);

    const failure = await send('key-server-error', { value: 'a', fail: 'server' });
    expect(failure.status).toBe(500);
    expect((await problemOf(failure)).code).toBe('internal_error');
    const retry = await send('key-server-error', { value: 'a', fail: 'server' });
    expect(retry.status).toBe(500);
    const fixed = await send('key-server-error', { value: 'a' });
    expect(fixed.status).toBe(201);
  });

  it('keeps keys of different principals apart', async () => {
    const original = await send('shared-key', { value: 'a' });
    expect(original.status).toBe(201);
    credentialStores.session = async (cookie) => (cookie === 'user-b' ? sessionActor('b', null) : null);
    // The same key used by another principal on another operation is independent.
    const other = await call(termOp('session'), {
      headers: { origin: ORIGIN, cookie: 'session=user-b', 'x-csrf-token': csrfTokenFor('session-b'), 'idempotency-key': 'shared-key' },
      body: { value: 'x' },
    });
    expect(other.status).toBe(200);
  });
});

describe('keyset pagination', () => {
  beforeEach(async () => {
    const db = await getDb();
    for (let i = 0; i < 5; i++) {
      await recordAudit(db, {
        action: 'session.revoked',
        outcome: 'success',
        actor: { kind: 'scim', tokenId: 'pagination-test', organizationId: 'org' },
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 3)),
      });
    }
  });

  it('walks every item once, newest first, with opaque cursors', async () => {
    const seen: { id: string; created_at: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await call(auditCollectionOperation, { query: `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}` });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { audit_events: { id: string; created_at: string }[]; has_more: boolean; next_cursor: string | null };
      seen.push(...body.audit_events);
      expect(body.has_more).toBe(body.next_cursor !== null);
      cursor = body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen.map((e) => e.id)).size).toBe(5);
    const order = seen.map((e) => `${e.created_at}|${e.id}`);
    expect(order).toEqual([...order].sort().reverse());
  });

  it('answers 400 invalid_pagination for a bad limit or a forged cursor', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=forged.cursor']) {
      const response = await call(auditCollectionOperation, { query });
      expect(response.status).toBe(400);
      expect((await problemOf(response)).code).toBe('invalid_pagination');
    }
  });

  it('adds the bearer envelope to a collection declared for bearer credentials, and to no other', async () => {
    credentialStores.apiKey = async () => ({
      kind: 'bearer',
      credential: 'api_key',
      credentialId: 'k1',
      userId: 'u1',
      clientId: null,
      scopes: ['identity.developer.read', 'identity.profile.read'],
      organizationId: null,
    });
    const bearer = await call(bearerAuditCollectionOperation, { query: 'limit=2', headers: { authorization: 'Bearer idk_key' } });
    expect(bearer.status).toBe(200);
    const body = (await bearer.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['audit_events', 'has_more', 'next_cursor', 'authentication', 'scopes']);
    expect(body).toMatchObject({ authentication: 'api_key', scopes: ['identity.developer.read', 'identity.profile.read'] });
    const browser = (await (await call(auditCollectionOperation, { query: 'limit=2' })).json()) as Record<string, unknown>;
    expect(Object.keys(browser)).toEqual(['audit_events', 'has_more', 'next_cursor']);
  });
});

function sessionActor(user: string, stepUpAt: Date | null): Extract<Actor, { kind: 'session' }> {
  return {
    kind: 'session',
    userId: `user-${user}`,
    sessionId: `session-${user}`,
    authenticatedAt: NOW,
    stepUpAt,
    stepUpMethod: stepUpAt ? 'passkey' : null,
    amr: ['hwk'],
    lastSeenAt: NOW,
    bindingHash: null,
  };
}

describe('auth terms, CSRF, step-up and scopes', () => {
  it('checks Origin before authentication, and authentication before parsing', async () => {
    const noOrigin = await call(termOp('session'), { body: { value: 'way too long for the schema' } });
    expect((await problemOf(noOrigin)).code).toBe('origin_mismatch');
    const noCredential = await call(termOp('session'), { headers: { origin: ORIGIN }, body: { value: 'way too long for the schema' } });
    expect((await problemOf(noCredential)).code).toBe('unauthenticated');
  });

  // ASVS V3.5.1
  it('requires the session-bound CSRF token on cookie mutations', async () => {
    credentialStores.session = async (cookie) => (cookie === 'valid' ? sessionActor('a', null) : null);
    const base = { origin: ORIGIN, cookie: 'session=valid' };
    const missing = await call(termOp('session'), { headers: base, body: { value: 'x' } });
    expect((await problemOf(missing)).code).toBe('csrf_failed');
    const wrong = await call(termOp('session'), { headers: { ...base, 'x-csrf-token': csrfTokenFor('another-session') }, body: { value: 'x' } });
    expect((await problemOf(wrong)).code).toBe('csrf_failed');
    const right = await call(termOp('session'), { headers: { ...base, 'x-csrf-token': csrfTokenFor('session-a') }, body: { value: 'x' } });
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ ok: true, actor: 'session' });
  });

  // ASVS V3.5.1
  it('answers 403 csrf_failed for any token, whatever its length in characters or bytes', async () => {
    credentialStores.session = async (cookie) => (cookie === 'valid' ? sessionActor('a', null) : null);
    const expected = csrfTokenFor('session-a');
    // Same number of characters as the real token but twice the bytes (UTF-8), longer, shorter, blank.
    const candidates = ['é'.repeat(expected.length), `${expected}x`, expected.slice(1), ' '];
    for (const token of candidates) {
      const response = await call(termOp('session'), { headers: { origin: ORIGIN, cookie: 'session=valid', 'x-csrf-token': token }, body: { value: 'x' } });
      expect(response.status, token).toBe(403);
      expect((await problemOf(response)).code).toBe('csrf_failed');
    }
    // The plain-form field goes through the same comparison (any Unicode, not only header bytes).
    for (const token of ['€'.repeat(expected.length)]) {
      const form = await call(termOp('session'), {
        headers: { origin: ORIGIN, cookie: 'session=valid', 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: `csrf_token=${encodeURIComponent(token)}&value=x`,
      });
      expect((await problemOf(form)).code).toBe('csrf_failed');
    }
  });

  // ASVS V7.5.1
  it('answers 403 step_up_required (saying how) unless the step-up is recent', async () => {
    let stepUpAt: Date | null = null;
    credentialStores.session = async () => sessionActor('a', stepUpAt);
    credentialStores.stepUpMethods = async () => ['passkey', 'password'];
    const headers = { origin: ORIGIN, cookie: 'session=any', 'x-csrf-token': csrfTokenFor('session-a') };
    const send = () => call(termOp('session_step_up'), { headers, body: { value: 'x' }, now: () => NOW });
    const none = await send();
    expect(none.status).toBe(403);
    expect(await problemOf(none)).toMatchObject({ code: 'step_up_required', step_up: { methods: ['passkey', 'password'], max_age_seconds: 600 } });
    stepUpAt = new Date(NOW.getTime() - 601_000);
    expect((await problemOf(await send())).code).toBe('step_up_required');
    stepUpAt = new Date(NOW.getTime() - 60_000);
    expect((await send()).status).toBe(200);
  });

  // ASVS V8.2.1
  it('enforces bearer scopes with a WWW-Authenticate challenge, and the credential kind', async () => {
    let scopes: string[] = [];
    const bearer = (credential: 'oauth' | 'api_key', organizationId: string | null = null): Extract<Actor, { kind: 'bearer' }> => ({
      kind: 'bearer',
      credential,
      credentialId: 'c1',
      userId: 'u1',
      clientId: null,
      scopes,
      organizationId,
    });
    credentialStores.oauthAccessToken = async () => bearer('oauth');
    credentialStores.apiKey = async () => bearer('api_key');
    const insufficient = await call(termOp('oauth_bearer'), { headers: { authorization: 'Bearer token' }, body: { value: 'x' } });
    expect(insufficient.status).toBe(403);
    expect((await problemOf(insufficient)).code).toBe('insufficient_scope');
    expect(insufficient.headers.get('www-authenticate')).toContain('scope="identity.profile.read"');
    scopes = ['identity.profile.read'];
    expect((await call(termOp('oauth_bearer'), { headers: { authorization: 'Bearer token' }, body: { value: 'x' } })).status).toBe(200);
    // An API-key-only operation refuses an OAuth token, whatever its scopes.
    const wrongKind = await call(termOp('api_key'), { headers: { authorization: 'Bearer token' }, body: { value: 'x' } });
    expect(wrongKind.status).toBe(401);
    expect(wrongKind.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('answers 401 unauthenticated when a handler receives another actor than it narrows to', async () => {
    const response = await call(mismatchedActorOperation);
    expect(response.status).toBe(401);
    expect((await problemOf(response)).code).toBe('unauthenticated');
  });

  it('binds organization routes to the credential organization', async () => {
    let organizationId: string | null = null;
    credentialStores.apiKey = async () => ({
      kind: 'bearer',
      credential: 'api_key',
      credentialId: 'k1',
      userId: 'u1',
      clientId: null,
      scopes: ['identity.organization.read'],
      organizationId,
    });
    credentialStores.tenant = async (id, userId) =>
      id === 'org-1' && userId === 'u1'
        ? {
            organizationId: id,
            membershipId: 'm1',
            userId,
            role: 'member',
            customRoleId: null,
            permissions: new Set(['read'] as const),
            rolePermissions: new Set(['read'] as const),
            policies: NO_POLICIES,
          }
        : null;
    const send = (id: string) => call(termOp('organization_bearer'), { headers: { authorization: 'Bearer idk_key' }, params: { id }, body: { value: 'x' } });
    expect((await problemOf(await send('org-1'))).code).toBe('forbidden');
    organizationId = 'org-1';
    expect((await problemOf(await send('org-2'))).code).toBe('forbidden');
    expect((await send('org-1')).status).toBe(200);
  });
});
