/** The transition table and the backoff, without a database. */
import { describe, expect, it } from 'vitest';
import { backoffMs, classify, MAX_ATTEMPTS, transitionFor } from './transitions';

describe('the delivery transition table', () => {
  it('maps each outcome to one next state', () => {
    expect(transitionFor('queued', 'success', 1).to).toBe('delivered');
    expect(transitionFor('retrying', 'retryable', MAX_ATTEMPTS - 1).to).toBe('retrying');
    expect(transitionFor('retrying', 'retryable', MAX_ATTEMPTS).to).toBe('failed');
    expect(transitionFor('queued', 'permanent', 1).to).toBe('failed');
    expect(transitionFor('queued', 'gone', 1)).toMatchObject({ to: 'failed', disablesSubscription: true });
    expect(() => transitionFor('delivered', 'success', 1)).toThrow();
  });

  it('classifies statuses and failures into safe codes', () => {
    expect(classify({ status: 204, durationMs: 1 })).toEqual({ outcome: 'success', failureCode: null, responseStatus: 204 });
    expect(classify({ status: 503, durationMs: 1 })).toMatchObject({ outcome: 'retryable', failureCode: 'http_5xx' });
    expect(classify({ status: 404, durationMs: 1 })).toMatchObject({ outcome: 'permanent', failureCode: 'http_4xx' });
    expect(classify({ status: 429, durationMs: 1 })).toMatchObject({ outcome: 'permanent', failureCode: 'http_4xx' });
    expect(classify({ status: 302, durationMs: 1 })).toMatchObject({ outcome: 'permanent', failureCode: 'http_3xx' });
    expect(classify({ status: 410, durationMs: 1 })).toMatchObject({ outcome: 'gone' });
    expect(classify({ failure: 'timeout', durationMs: 1 })).toMatchObject({ outcome: 'retryable', failureCode: 'timeout' });
    expect(classify({ failure: 'network_error', durationMs: 1 })).toMatchObject({ outcome: 'retryable' });
    expect(classify({ failure: 'private_address', durationMs: 1 })).toMatchObject({ outcome: 'permanent', failureCode: 'private_address' });
  });

  it('backs off 30 s x 2^(n-1) with jitter in [0.75, 1.25), capped at six hours', () => {
    expect(backoffMs(1, 0.5)).toBe(30_000);
    expect(backoffMs(2, 0.5)).toBe(60_000);
    expect(backoffMs(1, 0)).toBe(22_500);
    expect(backoffMs(1, 0.999)).toBeLessThan(37_500);
    expect(backoffMs(20, 0.5)).toBe(6 * 3600_000);
    expect(backoffMs(20, 0.999)).toBe(6 * 3600_000);
  });
});
