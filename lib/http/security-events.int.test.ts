/**
 * Security events, triggered through real requests (the pipeline, the provider, the test database):
 * each refusal kind yields one structured line on stdout and one count in the hour's row, and a line
 * never carries what the refused request carried (password, token, code, e-mail, address).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { securityEventCounts } from '@/lib/platform';
import { as, newClient, post, signInWithPassword, signUpWithPassword, useMailbox, type Browser } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN } from '@/tests/helpers/http';
import { mintAccessToken, registerNativeClient, tokenRequest } from '@/tests/helpers/oauth';
import { rateLimitedOperation } from '@/tests/helpers/test-operations';
import { withEnv } from '@/tests/setup/state';
import { SECURITY_EVENT_KINDS, type SecurityEventKind } from './security-events';

const mailbox = useMailbox();
const EMAIL = 'events-owner@example.com';
const PASSWORD = 'events-password-7d2e1a';

interface SecurityLine {
  time: string;
  level: string;
  event: string;
  kind: SecurityEventKind;
  code: string;
  status: number;
  operation: string;
  request_id: string;
  client: string;
  count_this_hour: number | null;
  bucket?: string;
}

let written: string[] = [];
let restoreLevel: () => void = () => {};
beforeAll(() => {
  // The suite runs at LOG_LEVEL=error; these tests read the warn lines.
  restoreLevel = withEnv({ LOG_LEVEL: 'warn' });
});
afterAll(() => restoreLevel());
beforeEach(() => {
  written = [];
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  });
});
afterEach(() => vi.restoreAllMocks());

/** The security lines written since the test began: every one must be a single JSON line. */
function securityLines(): SecurityLine[] {
  const lines = written.join('').split('\n').filter(Boolean);
  return lines.map((line) => JSON.parse(line) as SecurityLine & { event: string }).filter((line) => line.event === 'security');
}

const since = new Date(Date.now() - 3_600_000);
async function countsByKind(): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const row of await securityEventCounts(since)) totals[row.kind] = (totals[row.kind] ?? 0) + row.count;
  return totals;
}

/** Runs `work`, then returns its security lines and how each kind's count moved. */
async function observe(work: () => Promise<unknown>) {
  const before = await countsByKind();
  await work();
  const after = await countsByKind();
  const moved = Object.fromEntries(SECURITY_EVENT_KINDS.map((kind) => [kind, (after[kind] ?? 0) - (before[kind] ?? 0)]).filter(([, n]) => n !== 0));
  return { lines: securityLines(), moved };
}

function expectClean(lines: SecurityLine[], ...secrets: string[]) {
  const text = JSON.stringify(lines);
  for (const secret of secrets) expect(text, `a line carries ${secret}`).not.toContain(secret);
  for (const line of lines) {
    expect(Object.keys(line).sort()).toEqual(
      ['client', 'code', 'count_this_hour', 'event', 'kind', 'level', 'operation', 'request_id', 'status', 'time', ...(line.bucket ? ['bucket'] : [])].sort(),
    );
    expect(line.client).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(line.level).toBe('warn');
  }
}

let userId = '';
let browser: Browser;
beforeAll(async () => {
  userId = await signUpWithPassword(mailbox, EMAIL, PASSWORD);
  browser = await signInWithPassword(EMAIL, PASSWORD);
});

describe('security events', () => {
  // ASVS V16.3.1, V16.3.2
  it('logs a failed password sign-in as authentication_failed, without the e-mail, password or address', async () => {
    const client = newClient();
    const wrong = 'wrong-password-9f8e7d';
    const { lines, moved } = await observe(() =>
      post('/api/auth/signin/password', { email: EMAIL, password: wrong }, { client, headers: { 'x-request-id': 'events-signin-1' } }),
    );
    expect(lines).toEqual([
      expect.objectContaining({
        kind: 'authentication_failed',
        code: 'invalid_credentials',
        status: 401,
        operation: 'signInWithPassword',
        request_id: 'events-signin-1',
      }),
    ]);
    expect(moved).toEqual({ authentication_failed: 1 });
    expect(lines[0]!.count_this_hour).toBeGreaterThanOrEqual(1);
    expectClean(lines, EMAIL, 'events-owner', wrong, client);
  });

  // ASVS V16.3.2
  it('logs a forged session cookie as authentication_failed, and never the cookie', async () => {
    const forged = 'Fe26.2**forged-cookie-value-123';
    const { lines, moved } = await observe(() =>
      call(operation('GET', '/api/auth/session'), { headers: { cookie: `session=${forged}`, 'x-forwarded-for': newClient() } }),
    );
    expect(lines).toEqual([expect.objectContaining({ kind: 'authentication_failed', code: 'unauthenticated', status: 401, operation: 'getSession' })]);
    expect(moved).toEqual({ authentication_failed: 1 });
    expectClean(lines, forged);
  });

  // ASVS V16.3.2
  it('logs a bearer token without the required scope as authorization_failed, and never the token', async () => {
    const { value } = await mintAccessToken(userId, 'openid');
    const { lines, moved } = await observe(() =>
      call(operation('GET', '/api/v1/me'), { headers: { authorization: `Bearer ${value}`, 'x-forwarded-for': newClient() } }),
    );
    expect(lines).toEqual([expect.objectContaining({ kind: 'authorization_failed', code: 'insufficient_scope', status: 403 })]);
    expect(moved).toEqual({ authorization_failed: 1 });
    expectClean(lines, value);
  });

  // ASVS V16.3.2, V16.3.3
  it('logs a cookie request without the CSRF proof as csrf_refused', async () => {
    const { lines, moved } = await observe(() =>
      post('/api/auth/sessions/revoke', { session_id: browser.sessionId }, { headers: { cookie: browser.cookie, 'x-csrf-token': 'guessed-csrf-token-0000' } }),
    );
    expect(lines).toEqual([expect.objectContaining({ kind: 'csrf_refused', code: 'csrf_failed', status: 403, operation: 'revokeSession' })]);
    expect(moved).toEqual({ csrf_refused: 1 });
    expectClean(lines, browser.cookie.split('=')[1]!, browser.sessionId, 'guessed-csrf-token-0000');
  });

  // ASVS V16.3.3
  it('logs a foreign Origin as origin_refused, without the body it carried', async () => {
    const { lines, moved } = await observe(() =>
      post('/api/auth/signin/password', { email: EMAIL, password: PASSWORD }, { headers: { origin: 'https://evil.example' } }),
    );
    expect(lines).toEqual([expect.objectContaining({ kind: 'origin_refused', code: 'origin_mismatch', status: 403 })]);
    expect(moved).toEqual({ origin_refused: 1 });
    expectClean(lines, EMAIL, PASSWORD, 'evil.example');
  });

  // ASVS V16.3.3, V2.4.1
  it('logs a spent rate limit as rate_limited, naming the bucket', async () => {
    const client = newClient();
    const { lines, moved } = await observe(async () => {
      for (let i = 0; i < 4; i += 1) await call(rateLimitedOperation, { headers: { 'x-forwarded-for': client } });
    });
    expect(lines).toEqual([
      expect.objectContaining({ kind: 'rate_limited', code: 'rate_limited', status: 429, operation: 'test_rate_limited', bucket: 'test_only' }),
    ]);
    expect(moved).toEqual({ rate_limited: 1 });
    expectClean(lines, client);
  });

  // ASVS V16.3.3
  it('names a spent address bucket too, though its answer describes no subject bucket', async () => {
    const email = 'events-spent@example.com';
    const now = () => new Date('2031-03-03T12:00:10Z');
    const { lines } = await observe(async () => {
      for (let i = 0; i < 6; i += 1) await post('/api/auth/signin/email-otp/start', { email }, { now });
    });
    expect(lines).toEqual([
      expect.objectContaining({ kind: 'rate_limited', code: 'rate_limited', status: 429, operation: 'startEmailCodeSignIn', bucket: 'mail_per_address' }),
    ]);
    expectClean(lines, email);
  });

  // ASVS V16.3.3
  it('logs invalid input only as a run: past 20 refusals in 5 minutes from one client, each is a validation_probe', async () => {
    const client = newClient();
    const probe = { email: `not-an-address-${'<script>'}`, password: 'probe-secret-password', token: 'probe-token-abc' };
    const first = await observe(async () => {
      for (let i = 0; i < 20; i += 1) expect((await post('/api/auth/enrollment/start', probe, { client })).status).toBe(400);
    });
    expect(first.lines).toEqual([]);
    expect(first.moved).toEqual({});
    written = [];
    const next = await observe(async () => {
      for (let i = 0; i < 2; i += 1) expect((await post('/api/auth/enrollment/start', probe, { client })).status).toBe(400);
    });
    expect(next.lines).toEqual([
      expect.objectContaining({ kind: 'validation_probe', code: 'invalid_request', status: 400, operation: 'startEnrollment' }),
      expect.objectContaining({ kind: 'validation_probe', code: 'invalid_request', status: 400, operation: 'startEnrollment' }),
    ]);
    expect(next.moved).toEqual({ validation_probe: 2 });
    // Another client's first mistake is still not an event.
    written = [];
    const other = await observe(() => post('/api/auth/enrollment/start', probe));
    expect(other.lines).toEqual([]);
    expectClean(next.lines, 'not-an-address', 'probe-secret-password', 'probe-token-abc', client);
  });

  // ASVS V16.3.1, V16.3.2
  it('logs OAuth client authentication and grant failures from the provider, without the secret or code', async () => {
    const clientId = await registerNativeClient();
    const badCode = 'stolen-authorization-code-123456';
    const { lines, moved } = await observe(async () => {
      const wrongSecret = await call(operation('POST', '/oauth/token'), {
        rawBody: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'no-such-client', client_secret: 'guessed-client-secret-42' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': newClient() },
      });
      expect(wrongSecret.status).toBe(401);
      expect(((await wrongSecret.json()) as { error: string }).error).toBe('invalid_client');
      const grant = await tokenRequest({
        grant_type: 'authorization_code',
        code: badCode,
        code_verifier: 'v'.repeat(43),
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:50010/callback',
      });
      expect(grant.status).toBe(400);
      expect(((await grant.json()) as { error: string }).error).toBe('invalid_grant');
    });
    expect(lines).toEqual([
      expect.objectContaining({ kind: 'authentication_failed', code: 'invalid_client', status: 401, operation: 'token' }),
      expect.objectContaining({ kind: 'authentication_failed', code: 'invalid_grant', status: 400, operation: 'token' }),
    ]);
    expect(moved).toEqual({ authentication_failed: 2 });
    expectClean(lines, 'guessed-client-secret-42', badCode, 'no-such-client');
  });

  it('writes nothing for answers that are not security events (a success, an unknown resource, a signed-out visitor)', async () => {
    const { lines, moved } = await observe(async () => {
      expect((await call(operation('GET', '/api/auth/session'), { headers: { cookie: browser.cookie } })).status).toBe(200);
      // No credential presented at all: signed out, not a failed authentication.
      expect((await call(operation('GET', '/api/auth/session'), { headers: { cookie: 'theme=dark' } })).status).toBe(401);
      expect((await call(operation('GET', '/api/v1/me'))).status).toBe(401);
      const missing = await call(operation('POST', '/api/auth/sessions/revoke'), {
        body: { session_id: '00000000-0000-4000-8000-000000000000' },
        headers: { ...as(browser), origin: ORIGIN },
      });
      expect(missing.status).toBe(404);
    });
    expect(lines).toEqual([]);
    expect(moved).toEqual({});
  });
});
