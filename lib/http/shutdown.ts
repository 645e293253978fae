/**
 * Graceful shutdown on SIGTERM (and SIGINT): the orchestrator wants the instance gone, and nothing in
 * flight should be lost on the way.
 *
 * 1. Draining starts: readiness answers not ready at once (/readyz 503), every answer carries
 *    `Connection: close`.
 * 2. The servers stop accepting connections; idle kept-alive connections close.
 * 3. Requests in flight get SHUTDOWN_GRACE_SECONDS to finish; meanwhile the webhook worker stops
 *    (sends in flight finish or give their leases back).
 * 4. Remaining connections are cut, the database pool closes, the process exits 0.
 *
 * `next start` handles these signals itself (closing at once, exit 143) unless NEXT_MANUAL_SIG_HANDLE
 * is set; when it is not, its listeners are replaced by this one (docs/decisions.md).
 */
import { getConfig } from '@/lib/config';
import { closeDb } from '@/lib/db';
import { logLine, metrics, startDraining } from '@/lib/platform';
import { stopServiceWorker } from '@/lib/webhooks';
import { frontDoorState } from './front-door';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
const state = globalThis as unknown as { __identityShutdown?: Promise<void> };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function drained(deadline: number): Promise<boolean> {
  while (frontDoorState().inFlight > 0) {
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
  return true;
}

async function shutDown(signal: string): Promise<void> {
  const graceMs = getConfig().shutdownGraceSeconds * 1000;
  const started = Date.now();
  startDraining();
  metrics().ready.set(0);
  const { servers } = frontDoorState();
  logLine('info', 'shutdown_started', { signal, in_flight: frontDoorState().inFlight, grace_ms: graceMs });
  for (const server of servers) {
    server.close();
    server.closeIdleConnections();
  }
  const [finished] = await Promise.all([drained(started + graceMs), stopServiceWorker(Math.min(graceMs, 5_000)).catch(() => undefined)]);
  if (!finished) logLine('warn', 'shutdown_grace_exceeded', { in_flight: frontDoorState().inFlight });
  for (const server of servers) server.closeAllConnections();
  await closeDb().catch(() => undefined);
  logLine('info', 'shutdown_complete', { duration_ms: Date.now() - started, all_requests_finished: finished });
  process.exit(0);
}

export function installShutdown(): void {
  // eslint-disable-next-line no-restricted-properties -- Next's own switch for its signal handling, not our configuration
  const nextHandlesSignals = !process.env.NEXT_MANUAL_SIG_HANDLE;
  for (const signal of SIGNALS) {
    if (nextHandlesSignals) process.removeAllListeners(signal);
    process.on(signal, () => {
      state.__identityShutdown ??= shutDown(signal);
    });
  }
}
