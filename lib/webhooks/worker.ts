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
import { deliverDue, fanOut } from './dispatch';

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

/** Delivery lanes per worker: one lane's database work (claim, record) overlaps the other's sends. */
const LANES = 2;

/**
 * One round: fan-out runs alongside the delivery lanes (deliveries start with the first dispatched
 * batch), and each lane passes until it finds fewer due deliveries than its share of the batch after
 * fan-out has finished. At most `batch` sends are in flight per worker.
 */
export async function workOnce(owner: string, batch: number, signal?: AbortSignal, clock: () => Date = () => new Date()): Promise<number> {
  let dispatching = true;
  let wake = () => {};
  let progress = new Promise<void>((resolve) => (wake = resolve));
  const notify = () => {
    wake();
    progress = new Promise<void>((resolve) => (wake = resolve));
  };
  const fan = (async () => {
    try {
      while ((await fanOut(clock())) > 0) notify();
    } finally {
      dispatching = false;
      notify();
    }
  })();
  const limit = Math.max(1, Math.ceil(batch / LANES));
  let sent = 0;
  const lane = async (laneOwner: string) => {
    for (;;) {
      const finished = !dispatching;
      const next = progress;
      const n = await deliverDue({ now: clock(), owner: laneOwner, limit, signal });
      sent += n;
      if (signal?.aborted || (n < limit && finished)) return;
      if (n < limit) await next;
    }
  };
  await Promise.all([fan, ...Array.from({ length: LANES }, (_, i) => lane(`${owner}/${i}`))]);
  return sent;
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

/** Starts the in-service worker (instrumentation.ts); the process's shutdown (lib/http/shutdown.ts) stops it. */
export function runWorkerInService(): void {
  ensureWebhookWorker();
}

/** Stops the in-service worker, if one runs: sends in flight finish within `graceMs` or give their leases back. */
export async function stopServiceWorker(graceMs?: number): Promise<void> {
  const worker = holder.__identityWebhookWorker;
  holder.__identityWebhookWorker = undefined;
  await worker?.stop(graceMs);
}
