/**
 * The delivery worker: a loop of fan-out and delivery passes, polling every WEBHOOK_WORKER_INTERVAL_MS.
 * It runs inside the service (started once per process from instrumentation.ts) and as `npm run
 * worker`; any number may run at once (SKIP LOCKED leases keep them apart). Stopping lets the sends in
 * flight finish for a grace period, then aborts them, which gives their leases back untouched.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { getConfig } from '@/lib/config';
import { logLine } from '@/lib/platform';
import { deliverDue, fanOutAll } from './dispatch';

export interface WebhookWorker {
  readonly owner: string;
  /** Stops polling; sends in flight get `graceMs` to finish, then are aborted and their leases released. */
  stop(graceMs?: number): Promise<void>;
}

const holder = globalThis as unknown as { __identityWebhookWorker?: WebhookWorker };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One round: dispatch the outbox, then deliver until a pass finds fewer due deliveries than a batch. */
export async function workOnce(owner: string, batch: number, signal?: AbortSignal, clock: () => Date = () => new Date()): Promise<number> {
  await fanOutAll(clock());
  let sent = 0;
  for (;;) {
    const n = await deliverDue({ now: clock(), owner, limit: batch, signal });
    sent += n;
    if (n < batch || signal?.aborted) return sent;
  }
}

export function startWebhookWorker(options: { intervalMs?: number; batch?: number } = {}): WebhookWorker {
  const config = getConfig().webhookWorker;
  const intervalMs = options.intervalMs ?? config.intervalMs;
  const batch = options.batch ?? config.batch;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const stopping = new AbortController();
  const sends = new AbortController();

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        await workOnce(owner, batch, sends.signal);
      } catch (error) {
        logLine('error', 'webhook.worker_pass_failed', { message: error instanceof Error ? error.message : String(error) });
      }
      await sleep(intervalMs, stopping.signal);
    }
  })();

  return {
    owner,
    async stop(graceMs = 5_000) {
      stopping.abort();
      const grace = new AbortController();
      await Promise.race([loop, sleep(graceMs, grace.signal)]);
      grace.abort();
      sends.abort();
      await loop;
    },
  };
}

/** The in-service worker, once per process (`next dev` may load this module once per bundle). */
export function ensureWebhookWorker(): WebhookWorker | null {
  if (!getConfig().webhookWorker.enabled) return null;
  holder.__identityWebhookWorker ??= startWebhookWorker();
  return holder.__identityWebhookWorker;
}

/**
 * Starts the in-service worker and stops it on SIGTERM: in-flight sends finish or give their leases
 * back, then the signal is raised again so the process ends as it would have (Next's own handler, or
 * the default exit when nobody else listens).
 */
export function runWorkerInService(): void {
  const worker = ensureWebhookWorker();
  if (!worker) return;
  process.once('SIGTERM', () => {
    void worker.stop().finally(() => {
      if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
    });
  });
}
