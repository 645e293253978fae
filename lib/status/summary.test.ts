import { describe, expect, it } from 'vitest';
import { healthyEvidence } from './evidence.fixture';
import { CAPABILITIES, classifyAll } from './capabilities';
import { describeCapabilitySummary, summarizeCapabilities } from './summary';

const devMailbox = healthyEvidence({
  database: { state: 'pass', driver: 'pglite', latencyMs: 1 },
  keys: { state: 'degraded', generated: true },
  mail: { state: 'degraded', transport: 'dev_mailbox' },
  oauthEnabled: false,
});

describe('capability summary', () => {
  it('counts every capability exactly once, whatever its status', () => {
    const capabilities = classifyAll(devMailbox);
    const summary = summarizeCapabilities(capabilities);
    expect(Object.values(summary).reduce((a, b) => a + b, 0)).toBe(CAPABILITIES.length);
    for (const [status, count] of Object.entries(summary)) expect(count, status).toBe(capabilities.filter((c) => c.status === status).length);
    // This evidence produces three statuses besides live; none may go uncounted.
    expect(summary.degraded).toBeGreaterThan(0);
    expect(summary.gated).toBe(2); // OAuth (switched off in this evidence) and agent action execution
    expect(summary.manual).toBe(1); // deletion requests, completed by an operator
  });

  it('says every non-zero status, in a fixed order, adding up to the total', () => {
    expect(describeCapabilitySummary({ live: 10, degraded: 7, gated: 0, manual: 0, planned: 7 })).toBe('24 capabilities: 10 live, 7 degraded, 7 planned.');
    expect(describeCapabilitySummary({ planned: 1, gated: 2, live: 3 })).toBe('6 capabilities: 3 live, 2 gated, 1 planned.');
    expect(describeCapabilitySummary({ live: 1 })).toBe('1 capability: 1 live.');
  });
});
