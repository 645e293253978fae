/**
 * Contract tests generated from the operation registry: every declared operation (and one test-only
 * operation per auth term) is walked through the pipeline's shared rules.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { AnyOperation } from '@/lib/contract/operation';
import { OPERATIONS } from '@/lib/http/registry';
import { serve } from '@/lib/http/serve';
import { DEPRECATION_NOTICE_DAYS } from '@/lib/http/versioning';
import { call, ORIGIN, problemOf } from '../helpers/http';
import { lifecycleOperations, termOperations } from '../helpers/test-operations';
import { WalkCoverage } from '../helpers/walk-coverage';
import { scimError } from '../helpers/scim';
import { surfaceOf } from '@/lib/http/surfaces';

const ALL: AnyOperation[] = [...OPERATIONS, ...termOperations, ...lifecycleOperations];
const walk = new WalkCoverage();
const label = (op: AnyOperation) => `${op.method} ${op.path}`;
let clients = 0;
/** Each call comes from its own client address, so shared rate-limit buckets do not couple the tests. */
const browserHeaders = (op: AnyOperation): Record<string, string> => ({
  'x-forwarded-for': `2001:db8::${(clients += 1).toString(16)}`,
  ...(op.origin === 'none' ? {} : { origin: ORIGIN }),
});
const bodyFor = (op: AnyOperation, body: unknown) => (op.method === 'GET' ? undefined : body);
const lifecycleOf = (op: AnyOperation) => (op.lifecycle?.sunsetAt ? 'sunset-scheduled' : op.lifecycle?.deprecatedAt ? 'deprecated' : 'current');

/** The versioning policy's rules for a retiring operation (docs/versioning). */
function lifecycleProblems(op: AnyOperation): string[] {
  const { deprecatedAt, sunsetAt } = op.lifecycle ?? {};
  if (!sunsetAt) return [];
  if (!deprecatedAt) return ['sunset without deprecation'];
  return sunsetAt.getTime() - deprecatedAt.getTime() < DEPRECATION_NOTICE_DAYS * 86_400_000
    ? [`sunset less than ${DEPRECATION_NOTICE_DAYS} days after deprecation`]
    : [];
}

describe('the registry', () => {
  it('has unique operation ids and method+path pairs', () => {
    expect(new Set(OPERATIONS.map((o) => o.id)).size).toBe(OPERATIONS.length);
    // Variants share a method and path with the operation they name, which must exist there.
    const mains = OPERATIONS.filter((o) => o.kind !== 'delegated' || !o.variant);
    expect(new Set(mains.map(label)).size).toBe(mains.length);
    for (const op of OPERATIONS) {
      if (op.kind !== 'delegated' || !op.variant) continue;
      const main = mains.find((o) => o.id === op.variant!.of);
      expect(main && label(main), op.id).toBe(label(op));
    }
  });

  it('declares every operation at a path of the spec, unless it is a documented extension', () => {
    const specPairs = new Set(
      readFileSync(path.resolve(__dirname, '../../docs/spec/endpoints.tsv'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.replace('\t', ' ')),
    );
    const undeclared = OPERATIONS.filter((op) => !op.extension && !specPairs.has(label(op))).map(label);
    expect(undeclared).toEqual([]);
  });

  it('announces every sunset at least 180 days after its deprecation', () => {
    // The test registry declares lifecycles, so this walk is never empty (and can fail).
    const retiring = ALL.filter((o) => o.lifecycle);
    expect(retiring.length).toBeGreaterThan(0);
    for (const op of retiring) expect(lifecycleProblems(op), label(op)).toEqual([]);
  });

  it('would catch a sunset announced too late or without a deprecation', () => {
    const deprecatedAt = new Date('2026-01-01T00:00:00Z');
    const tooSoon = { ...lifecycleOperations[0]!, lifecycle: { deprecatedAt, sunsetAt: new Date(deprecatedAt.getTime() + 30 * 86_400_000) } };
    expect(lifecycleProblems(tooSoon)).toEqual([`sunset less than ${DEPRECATION_NOTICE_DAYS} days after deprecation`]);
    const undeprecated = { ...lifecycleOperations[0]!, lifecycle: { sunsetAt: deprecatedAt } };
    expect(lifecycleProblems(undeprecated)).toEqual(['sunset without deprecation']);
  });

  it('tells callers of a retiring operation: Deprecation, Sunset, Link and the lifecycle, on successes and errors', async () => {
    for (const op of lifecycleOperations) {
      const { deprecatedAt, sunsetAt } = op.lifecycle!;
      for (const response of [await call(op), await call(op, { headers: { 'x-service-api-version': 'v9' } })]) {
        expect(response.headers.get('x-service-api-lifecycle'), label(op)).toBe(sunsetAt ? 'sunset-scheduled' : 'deprecated');
        // RFC 9745: a structured-field date; RFC 8594: an HTTP-date; RFC 8288 link to the policy.
        expect(response.headers.get('deprecation')).toBe(`@${deprecatedAt!.getTime() / 1000}`);
        expect(response.headers.get('sunset')).toBe(sunsetAt ? sunsetAt.toUTCString() : null);
        expect(response.headers.get('link')).toBe('</docs/versioning>; rel="deprecation"; type="text/html"');
      }
    }
  });

  it('binds every operation path to a route file that serves it', () => {
    for (const opPath of new Set(OPERATIONS.map((op) => op.path))) {
      const file = path.resolve(__dirname, '../../app', opPath.slice(1).replace(/\{(\w+)\}/g, '[$1]'), 'route.ts');
      expect(existsSync(file), opPath).toBe(true);
      expect(readFileSync(file, 'utf8'), opPath).toContain(`serve('${opPath}')`);
    }
  });

  it('answers OPTIONS with X-Request-ID: the allowed methods for the API, the provider for protocol paths', async () => {
    const api = await serve('/api/v1/me').OPTIONS(new Request(`${ORIGIN}/api/v1/me`, { method: 'OPTIONS', headers: { 'x-request-id': 'options-1' } }), {
      params: Promise.resolve({}),
    });
    expect(api.status).toBe(204);
    expect(api.headers.get('allow')).toBe('GET, PATCH, OPTIONS');
    expect(api.headers.get('x-request-id')).toBe('options-1');
    const preflight = await serve('/oauth/token').OPTIONS(
      new Request(`${ORIGIN}/oauth/token`, { method: 'OPTIONS', headers: { origin: 'https://spa.example', 'access-control-request-method': 'POST' } }),
      { params: Promise.resolve({}) },
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('x-request-id')).toBeTruthy();
  });

  it('never registers a test-only operation', () => {
    expect(OPERATIONS.filter((op) => op.testOnly)).toEqual([]);
  });
});

describe.each(ALL.map((op) => [label(op), op] as const))('%s', (_name, op) => {
  it('carries X-Request-ID, echoing a sane incoming one', async () => {
    walk.record(op);
    const response = await call(op, { headers: { ...browserHeaders(op), 'x-request-id': 'contract-test-0001' } });
    expect(response.headers.get('x-request-id')).toBe('contract-test-0001');
    expect(response.headers.get('x-service-api-version')).toBe('v1');
  });

  it('mints a request id when the incoming one is unsafe', async () => {
    const response = await call(op, { headers: { ...browserHeaders(op), 'x-request-id': 'bad id <script>' } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects an unsupported API version with 400 before authentication', async () => {
    const response = await call(op, { headers: { ...browserHeaders(op), 'x-service-api-version': 'v2' } });
    expect(response.status).toBe(400);
    if (surfaceOf(op.path) === 'scim') {
      expect((await scimError(response)).detail).toMatch(/version/i);
      return;
    }
    const problem = await problemOf(response);
    expect(problem.code).toBe('unsupported_api_version');
    expect(problem.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('accepts an explicit v1', async () => {
    const response = await call(op, { headers: { ...browserHeaders(op), 'x-service-api-version': 'v1' } });
    // Delegated (OAuth) operations answer errors in their own format, so read the body loosely.
    const body = (await response.json().catch(() => null)) as { code?: string } | null;
    expect(body?.code).not.toBe('unsupported_api_version');
    expect(response.headers.get('x-service-api-lifecycle')).toBe(lifecycleOf(op));
  });

  if (op.origin === 'required') {
    // ASVS V3.5.1, V3.5.2
    it('refuses a missing or foreign Origin with 403 origin_mismatch', async () => {
      for (const headers of [
        {} as Record<string, string>,
        { origin: 'http://localhost:3000.evil.test' },
        { origin: 'null' },
        { origin: 'https://localhost:3000' },
      ]) {
        const response = await call(op, { headers: { ...headers, 'x-forwarded-for': browserHeaders(op)['x-forwarded-for']! }, body: bodyFor(op, {}) });
        expect(response.status).toBe(403);
        expect((await problemOf(response)).code).toBe('origin_mismatch');
      }
    });
  }

  if (op.origin === 'if-present') {
    it('refuses a cross-site browser request', async () => {
      const foreign = await call(op, { headers: { origin: 'https://evil.test' } });
      expect(foreign.status).toBe(403);
      const crossSite = await call(op, { headers: { 'sec-fetch-site': 'cross-site' } });
      expect((await problemOf(crossSite)).code).toBe('origin_mismatch');
    });
  }

  if (op.auth.kind !== 'public' && op.kind === 'delegated') {
    it('is refused by the protocol without a credential, in its own error format', async () => {
      const response = await call(op, { headers: browserHeaders(op), body: bodyFor(op, {}) });
      expect([400, 401]).toContain(response.status);
      expect((await response.json()).error).toEqual(expect.any(String));
      expect(response.headers.get('x-request-id')).toBeTruthy();
    });
  }

  if (op.auth.kind !== 'public' && op.kind !== 'delegated') {
    // ASVS V8.3.1
    it('answers 401 without a credential and with a forged one', async () => {
      const forged: Record<string, string> = {
        cookie: 'session=Fe26.2**forged',
        'x-enrollment-token': 'forged',
        'x-recovery-token': 'forged',
        authorization:
          op.auth.kind === 'scim_token'
            ? 'Bearer scim_forged'
            : op.auth.kind === 'bearer' && !op.auth.accepts.includes('oauth')
              ? 'Bearer idk_forged'
              : 'Bearer forged',
      };
      for (const headers of [browserHeaders(op), { ...browserHeaders(op), ...forged }]) {
        const response = await call(op, { headers, body: bodyFor(op, { value: 'x' }) });
        expect(response.status).toBe(401);
        if (surfaceOf(op.path) === 'scim') expect((await scimError(response)).detail).toMatch(/SCIM bearer token/);
        else expect((await problemOf(response)).code).toBe('unauthenticated');
      }
    });
  }

  // An endpoint another party's browser posts to (a SAML ACS) judges any body itself: it answers with
  // its redirect and a classification, never an error body (spec, errors rule 4).
  const judgesAnyBody = op.kind === 'resource' && op.body !== undefined && (op.body as z.ZodType).safeParse({ unexpected: [1, 2, 3] }).success;
  if (op.auth.kind === 'public' && op.kind === 'resource' && op.body && !judgesAnyBody) {
    it('answers 400 invalid_request with field errors for a bad body', async () => {
      const response = await call(op, { headers: browserHeaders(op), body: { unexpected: [1, 2, 3] } });
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(problem.code).toBe('invalid_request');
      expect(Array.isArray(problem.errors)).toBe(true);
    });
  }

  if (op.auth.kind === 'public' && judgesAnyBody) {
    it('answers a bad body with its declared redirect, never an error body', async () => {
      const response = await call(op, { headers: browserHeaders(op), body: { unexpected: [1, 2, 3] } });
      expect(response.status).toBe(op.successStatus);
      expect(response.headers.get('location')).toMatch(/^\/sign-in\?federation=[a-z_]+$/);
    });
  }

  // Operations named by a path parameter need a resource of their own (their tests make one).
  if (op.auth.kind === 'public' && op.method === 'GET' && op.successStatus === 200 && !op.query && !op.path.includes('{')) {
    // ASVS V14.3.2
    it('answers successfully with its declared status and no-store unless declared cacheable', async () => {
      const response = await call(op);
      expect(response.status).toBe(op.successStatus);
      expect(response.headers.get('cache-control')).toBe(op.cacheControl ?? 'no-store');
    });
  }
});

describe('the walk', () => {
  it('ran every operation of the registry (and each test-only one)', () => {
    expect(OPERATIONS.length).toBeGreaterThan(0);
    expect(walk.gaps(ALL)).toEqual({ notRun: [], unexpected: [] });
  });
});
