/** The reasons /status and GET /api/v1/capabilities give read as sentences, whatever they name. */
import { describe, expect, it } from 'vitest';
import { healthyEvidence } from './evidence.fixture';
import { classifyAll, classifyOne } from './capabilities';

const devMailbox = healthyEvidence({ mail: { state: 'degraded', transport: 'dev_mailbox' } });

describe('capability reasons', () => {
  it('start with a capital, end with one full stop, and never say that a list "is built"', () => {
    for (const evidence of [healthyEvidence(), devMailbox]) {
      for (const { id, reason } of classifyAll(evidence)) {
        expect(reason, id).toMatch(/^[A-Z0-9/].*[^.]\.$/s);
        // "Applications ... and scoped API keys is built": a list of things took a singular verb.
        expect(reason, id).not.toMatch(/\bis built\b/);
      }
    }
  });

  it('name what the developer capability offers, then the evidence', () => {
    const { status, reason } = classifyOne('developer', healthyEvidence());
    expect(status).toBe('live');
    expect(reason).toMatch(
      /^The developer portal \(\/portal\), the developer API and the MCP server \(\/mcp\): .* and scoped API keys: available; the database answers\.$/,
    );
    expect(classifyOne('enrollment', devMailbox).reason).toBe('Enrollment: available, but mail goes to the dev mailbox.');
  });
});
