import { describe, expect, it } from 'vitest';
import { runtimeVerdict } from './runtime';

describe('the runtime check', () => {
  it('supports the LTS lines 22 and 24', () => {
    expect(runtimeVerdict('v22.12.0')).toEqual({ verdict: 'supported' });
    expect(runtimeVerdict('24.1.0')).toEqual({ verdict: 'supported' });
  });

  it('refuses older lines with a message naming the supported ones', () => {
    const verdict = runtimeVerdict('v20.20.2');
    expect(verdict.verdict).toBe('refused');
    expect(verdict).toMatchObject({ message: expect.stringContaining('22.x or 24.x') });
    expect(runtimeVerdict('garbage').verdict).toBe('refused');
  });

  it('runs newer or odd-numbered lines with a warning', () => {
    expect(runtimeVerdict('v23.0.0').verdict).toBe('untested');
    expect(runtimeVerdict('v26.0.0').verdict).toBe('untested');
  });

  it('is what this test run executes on', () => {
    expect(runtimeVerdict(process.version), `the suite runs on Node.js ${process.version}`).toEqual({ verdict: 'supported' });
  });
});
