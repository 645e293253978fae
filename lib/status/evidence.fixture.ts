import type { Evidence } from './evidence';

/** Evidence of a healthy production deployment, for unit tests to vary one part at a time. */
export function healthyEvidence(overrides: Partial<Evidence> = {}): Evidence {
  return {
    checkedAt: new Date(),
    database: { state: 'pass', driver: 'postgres', latencyMs: 1 },
    migrations: { state: 'pass', shipped: 1, applied: 1, latest: '0000_foundation' },
    keys: { state: 'pass', generated: false },
    mail: { state: 'pass', transport: 'smtp_ready' },
    passwordHashing: { state: 'pass', iterations: 600_000 },
    helpProvider: { configured: false },
    oauthEnabled: true,
    federation: { enabled: true, samlEnabled: false },
    ...overrides,
  };
}
