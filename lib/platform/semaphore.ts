import { serviceError } from '@/lib/contract/errors';

/**
 * Bounds concurrent expensive work (password hashing) so a flood queues instead of starving other
 * requests; past `maxQueue` waiting callers the service answers 503 rather than queueing forever.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly maxQueue: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxQueue) throw serviceError('service_unavailable', 'The service is busy; retry shortly.');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
