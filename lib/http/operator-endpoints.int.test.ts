/**
 * /metrics and the access log, through real requests (the pipeline, the test database): the scrape is
 * closed without METRICS_TOKEN and to a wrong token, counts what the requests did by operation, status
 * class, sign-in method and outcome, refused bucket and security event kind, and no label or log
 * line carries an e-mail address, a password or an id.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newClient, post, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { withEnv } from '@/tests/setup/state';
import { answerMetrics, answerReadinessProbe } from './operator-endpoints';

const TOKEN = 'metrics-token-for-the-tests-0123';
const mailbox = useMailbox({ METRICS_TOKEN: TOKEN });
const EMAIL = 'metrics.person@example.test';
const PASSWORD = 'a long enough passphrase for metrics';

async function scrape(authorization = `Bearer ${TOKEN}`): Promise<Response> {
  return answerMetrics(new Headers({ authorization }));
}

/** The value of one series in the exposition text (0 when absent). */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

beforeAll(async () => {
  await signUpWithPassword(mailbox, EMAIL, PASSWORD);
});
afterEach(() => vi.restoreAllMocks());

describe('GET /metrics', () => {
  it('is off (404) without METRICS_TOKEN, and refuses a missing or wrong token (401)', async () => {
    const restore = withEnv({ METRICS_TOKEN: undefined });
    try {
      expect((await scrape()).status).toBe(404);
    } finally {
      restore();
    }
    const missing = await scrape('');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    expect(missing.headers.get('x-request-id')).toBeTruthy();
    expect((await scrape(`Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await scrape(`Basic ${TOKEN}`)).status).toBe(401);
  });

  it('counts requests by operation and status class, sign-ins by method and outcome, refusals and security events', async () => {
    const before = await (await scrape()).text();
    expect((await post('/api/auth/signin/password', { email: EMAIL, password: PASSWORD })).status).toBe(201);
    expect((await post('/api/auth/signin/password', { email: EMAIL, password: 'not the right one at all' })).status).toBe(401);
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const after = await response.text();
    const grew = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(grew('identity_http_requests_total{operation="signInWithPassword",status_class="2xx"}')).toBe(1);
    expect(grew('identity_http_requests_total{operation="signInWithPassword",status_class="4xx"}')).toBe(1);
    expect(grew('identity_http_request_duration_seconds_count{operation="signInWithPassword",status_class="2xx"}')).toBe(1);
    expect(grew('identity_signin_attempts_total{method="password",outcome="success"}')).toBe(1);
    expect(grew('identity_signin_attempts_total{method="password",outcome="failure"}')).toBe(1);
    expect(grew('identity_security_events_total{kind="authentication_failed"}')).toBe(1);
    // Read at scrape time from the database and the readiness evidence.
    expect(after).toMatch(/^identity_webhook_queue_due \d+$/m);
    expect(after).toMatch(/^identity_webhook_oldest_due_age_seconds [\d.]+$/m);
    expect(after).toMatch(/^identity_ready [01]$/m);
    expect(after).toMatch(/^identity_db_pool_max_connections [1-9]\d*$/m);
    expect(after).toMatch(/^process_cpu_seconds_total /m);
  });

  it('counts a locked account as locked (behind the same generic failure) and a spent bucket by name', async () => {
    const email = 'locked.metrics@example.test';
    await signUpWithPassword(mailbox, email, PASSWORD);
    const series = {
      locked: 'identity_signin_attempts_total{method="password",outcome="locked"}',
      limited: 'identity_signin_attempts_total{method="password",outcome="rate_limited"}',
      bucket: 'identity_rate_limit_refusals_total{bucket="signin_account"}',
    };
    const before = await (await scrape()).text();
    // Ten failures lock the password; an eleventh within the minute spends the account's bucket.
    for (let i = 0; i < 10; i++) await post('/api/auth/signin/password', { email, password: `wrong password number ${i}` }, { client: newClient() });
    expect((await post('/api/auth/signin/password', { email, password: PASSWORD }, { client: newClient() })).status).toBe(429);
    // Two minutes on, the bucket has refilled but the lock (15 minutes) stands: the right password fails.
    const later = new Date(Date.now() + 120_000);
    expect((await post('/api/auth/signin/password', { email, password: PASSWORD }, { client: newClient(), now: () => later })).status).toBe(401);
    const after = await (await scrape()).text();
    const grew = (name: string) => valueOf(after, name) - valueOf(before, name);
    expect(grew(series.locked)).toBe(1);
    expect(grew(series.limited)).toBe(1);
    expect(grew(series.bucket)).toBe(1);
  });

  it('never labels a series with an address, an id or a secret', async () => {
    const text = await (await scrape()).text();
    const labels = text
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .flatMap((line) => [...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => `${m[1]}=${m[2]}`));
    expect(labels.length).toBeGreaterThan(10);
    for (const label of labels) {
      expect(label).not.toMatch(/@/);
      expect(label).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
      expect(label).not.toContain(PASSWORD);
    }
    const names = new Set(labels.map((label) => label.split('=')[0]));
    expect([...names].sort()).toEqual(expect.arrayContaining(['operation', 'status_class']));
    for (const name of names)
      expect([
        'operation',
        'status_class',
        'method',
        'outcome',
        'grant_type',
        'bucket',
        'kind',
        'state',
        'le',
        'quantile',
        'version',
        'major',
        'minor',
        'patch',
        'space',
        'type',
      ]).toContain(name);
  });
});

describe('GET /readyz', () => {
  it('answers 200 with the readiness status while the instance can serve', async () => {
    const response = await answerReadinessProbe(new Headers());
    expect([200]).toContain(response.status);
    expect(['ready', 'degraded']).toContain(((await response.json()) as { status: string }).status);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('the access log', () => {
  it('writes one line per request: request id, operation, status, duration, caller kind; never the body', async () => {
    const restore = withEnv({ LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN });
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    try {
      const response = await post('/api/auth/signin/password', { email: EMAIL, password: PASSWORD }, { headers: { 'x-request-id': 'access-line-test-0001' } });
      expect(response.status).toBe(201);
    } finally {
      vi.restoreAllMocks();
      restore();
    }
    const access = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === 'access');
    expect(access).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        event: 'access',
        request_id: 'access-line-test-0001',
        operation: 'signInWithPassword',
        method: 'POST',
        status: 201,
        duration_ms: expect.any(Number),
        actor: 'anonymous',
      },
    ]);
    expect(lines.join('')).not.toContain(PASSWORD);
    expect(lines.join('')).not.toContain(EMAIL);
  });
});
