import { afterEach, describe, expect, it } from 'vitest';
import { call, operation } from '@/tests/helpers/http';
import { startSmtpSink } from '@/tests/helpers/smtp-sink';
import { TEST_ENV, withEnv } from '@/tests/setup/state';
import { STATUS_PATHS } from './status.test-paths';

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

async function get<T = Record<string, unknown>>(path: string): Promise<T> {
  const response = await call(operation('GET', path));
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

interface Matrix {
  summary: Record<string, number>;
  capabilities: { id: string; status: string; reason: string }[];
}
const statusIn = (matrix: Matrix, id: string) => matrix.capabilities.find((c) => c.id === id)?.status;

describe('runtime and status surface', () => {
  // ASVS V4.1.1
  it('answers every status operation with 200 and X-Request-ID', async () => {
    for (const path of STATUS_PATHS) {
      const response = await call(operation('GET', path));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-request-id'), path).toBeTruthy();
      expect(response.headers.get('content-type'), path).toBe('application/json');
    }
  });

  it('reports health without touching secrets', async () => {
    const health = await get('/api/health');
    expect(health).toMatchObject({ status: 'ok', service: 'identity-service', api_version: 'v1' });
  });

  it('classifies capabilities honestly: built ones live, unbuilt ones planned, mail degraded without SMTP', async () => {
    const matrix = await get<Matrix>('/api/v1/capabilities');
    for (const id of [
      'status',
      'rate_limiting',
      'passkeys',
      'password',
      'session',
      'oauth',
      'interaction',
      'authorization',
      'developer',
      'webhooks',
      'federation',
      'scim',
    ]) {
      expect(statusIn(matrix, id), id).toBe('live');
    }
    // Without SMTP, codes and invitations reach people only through the dev mailbox.
    for (const id of ['email', 'help', 'enrollment', 'verification', 'email_otp', 'recovery', 'organizations'])
      expect(statusIn(matrix, id), id).toBe('degraded');
    expect(statusIn(matrix, 'privacy'), 'privacy').toBe('manual');
    const auth = await get<{ status: string; sign_in_methods: string[] }>('/api/auth/status');
    expect(auth).toMatchObject({ status: 'available', sign_in_methods: ['passkeys', 'password', 'email_otp'] });
    const total = Object.values(matrix.summary).reduce((a, b) => a + b, 0);
    expect(total).toBe(matrix.capabilities.length);
  });

  it('reports OAuth as gated when the operator switches it off', async () => {
    restore = withEnv({ OAUTH_ENABLED: 'false' });
    expect(statusIn(await get<Matrix>('/api/v1/capabilities'), 'oauth')).toBe('gated');
  });

  it('checks the database, migrations, keys, mail and password hashing for readiness', async () => {
    const readiness = await get<{ status: string; checks: { id: string; state: string }[] }>('/api/v1/readiness');
    const state = Object.fromEntries(readiness.checks.map((c) => [c.id, c.state]));
    expect(state).toEqual({ lifecycle: 'pass', database: 'pass', migrations: 'pass', keys: 'pass', mail: 'degraded', password_hashing: 'degraded' });
    expect(readiness.status).toBe('degraded');
  });

  it('reports mail live after a real SMTP handshake, and fail when the server is gone', async () => {
    const sink = await startSmtpSink();
    restore = withEnv({ SMTP_URL: sink.url, PASSWORD_PBKDF2_ITERATIONS: '600000' });
    const readiness = await get<{ status: string; checks: { id: string; state: string }[] }>('/api/v1/readiness');
    expect(readiness.checks.find((c) => c.id === 'mail')?.state).toBe('pass');
    expect(readiness.status).toBe('ready');
    const matrix = await get<Matrix>('/api/v1/capabilities');
    for (const id of ['email', 'enrollment', 'verification', 'email_otp', 'recovery', 'organizations']) expect(statusIn(matrix, id), id).toBe('live');
    await sink.close();
    restore();
    restore = withEnv({ SMTP_URL: sink.url });
    const down = await get<{ status: string; checks: { id: string; state: string }[] }>('/api/v1/readiness');
    expect(down.checks.find((c) => c.id === 'mail')?.state).toBe('fail');
    expect(down.status).toBe('not_ready');
  });

  it('fails the launch rehearsal closed, naming every missing gate', async () => {
    const rehearsal = await get<{ decision: string; gates: { id: string; passed: boolean }[] }>('/api/v1/rehearsal');
    const readiness = await get<{ checks: { id: string; detail: string }[] }>('/api/v1/readiness');
    const onPostgres = readiness.checks.find((c) => c.id === 'database')!.detail.startsWith('postgres');
    expect(rehearsal.decision).toBe('no_go');
    expect(Object.fromEntries(rehearsal.gates.map((g) => [g.id, g.passed]))).toEqual({
      approval: false,
      exact_origin: false,
      independent_gates: false,
      // The embedded database is never a production data store; a migrated Postgres is.
      data_store: onPostgres,
      operational_email: false,
    });
  });

  it('caches evidence for a few seconds so status calls cannot become load', async () => {
    restore = withEnv({ STATUS_EVIDENCE_TTL_SECONDS: '60' });
    const first = await get<{ checked_at: string }>('/api/v1/readiness');
    const second = await get<{ checked_at: string }>('/api/v1/capabilities');
    expect(second.checked_at).toBe(first.checked_at);
  });

  // ASVS V13.4.5
  it('never leaks secrets, connection strings or provider settings', async () => {
    const sink = await startSmtpSink();
    const secretUrl = sink.url.replace('smtp://', 'smtp://mailer:hunter2-smtp-password@');
    restore = withEnv({ SMTP_URL: secretUrl, HELP_PROVIDER_URL: 'http://127.0.0.1:9/v1', HELP_PROVIDER_API_KEY: 'sk-provider-key-never-shown' });
    let everything = '';
    for (const path of STATUS_PATHS) everything += await (await call(operation('GET', path))).text();
    for (const secret of [
      TEST_ENV.SESSION_SECRET!,
      TEST_ENV.PASSWORD_PEPPER!,
      TEST_ENV.DATA_ENCRYPTION_KEY!,
      'hunter2-smtp-password',
      'sk-provider-key-never-shown',
      '127.0.0.1',
      'postgres://',
    ]) {
      expect(everything).not.toContain(secret);
    }
    await sink.close();
  });
});
