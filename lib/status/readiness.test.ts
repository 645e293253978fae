import { afterEach, describe, expect, it } from 'vitest';
import { withEnv } from '@/tests/setup/state';
import type { Evidence } from './evidence';
import { healthyEvidence } from './evidence.fixture';
import { overallReadiness, readinessChecks, rehearsalGates } from './readiness';

const healthy = healthyEvidence();

let restore: (() => void) | null = null;
afterEach(() => restore?.());

const launchEnv = {
  BASE_URL: 'https://id.example.com',
  LAUNCH_APPROVED_BY: 'ops-lead',
  PASSWORD_PBKDF2_ITERATIONS: '600000',
  RATE_LIMIT_SCALE: '1',
};

describe('launch rehearsal gates', () => {
  it('go only when every gate has positive evidence', () => {
    restore = withEnv(launchEnv);
    expect(rehearsalGates(healthy).every((g) => g.passed)).toBe(true);
  });

  // ASVS V12.2.1
  it.each([
    ['approval', { LAUNCH_APPROVED_BY: undefined }, {}],
    ['exact_origin', { BASE_URL: 'http://id.example.com' }, {}],
    ['independent_gates', { RATE_LIMIT_SCALE: '10' }, {}],
    ['independent_gates', { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' }, {}],
    // The embedded database at an https origin with local development asked for explicitly.
    ['independent_gates', { DATABASE_URL: 'memory:', LOCAL_DEVELOPMENT: 'true' }, {}],
    ['data_store', {}, { database: { state: 'pass', driver: 'pglite', latencyMs: 1 } }],
    ['data_store', {}, { migrations: { state: 'fail', shipped: 2, applied: 1, latest: 'x' } }],
    ['operational_email', {}, { mail: { state: 'degraded', transport: 'dev_mailbox' } }],
  ] as const)('fails %s on %j %j', (gate, env, evidence) => {
    restore = withEnv({ ...launchEnv, ...env });
    const gates = rehearsalGates({ ...healthy, ...evidence } as Evidence);
    expect(gates.find((g) => g.id === gate)?.passed).toBe(false);
  });
});

describe('readiness', () => {
  it('is ready, degraded or not ready from the worst check', () => {
    expect(overallReadiness(readinessChecks(healthy))).toBe('ready');
    expect(overallReadiness(readinessChecks({ ...healthy, mail: { state: 'degraded', transport: 'dev_mailbox' } }))).toBe('degraded');
    expect(overallReadiness(readinessChecks({ ...healthy, database: { state: 'fail', driver: null, latencyMs: null } }))).toBe('not_ready');
    // Draining after SIGTERM: not ready at once, whatever the cached evidence says.
    expect(overallReadiness(readinessChecks(healthy, true))).toBe('not_ready');
  });
});
