import type { Gauge } from 'prom-client';
import { serviceError } from '@/lib/contract/errors';

/**
 * Bounds concurrent expensive work (password hashing) so a flood queues instead of starving other
 * requests; past `maxQueue` waiting callers the service answers 503 rather than queueing forever.
 * Given a gauge, it keeps `state="running"` and `state="waiting"` current (inc/dec, so copies of a
 * module in several bundles add up in the one process-wide registry).
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly maxQueue: number,
    private readonly gauge?: Gauge<'state'>,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxQueue) throw serviceError('service_unavailable', 'The service is busy; retry shortly.');
      this.gauge?.inc({ state: 'waiting' });
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      this.gauge?.dec({ state: 'waiting' });
    } else {
      this.active += 1;
      this.gauge?.inc({ state: 'running' });
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else {
        this.active -= 1;
        this.gauge?.dec({ state: 'running' });
      }
    }
  }
}
