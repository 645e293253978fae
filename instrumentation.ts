/**
 * Runs once when the server process starts. The Node-only start-up (configuration check, peer
 * stamping, migrations) lives in lib/http/startup.ts, loaded only in the Node.js runtime; then the
 * webhook delivery worker starts and the graceful shutdown takes SIGTERM (never while `next build`
 * collects pages: that process serves nothing).
 */
export async function register() {
  // eslint-disable-next-line no-restricted-properties -- Next's own runtime marker, not configuration
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  await (await import('./lib/http/startup')).startServer();
  // eslint-disable-next-line no-restricted-properties -- Next's own build-phase marker, not configuration
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  (await import('./lib/webhooks')).runWorkerInService();
  // /oauth and /.well-known answered before Next's router (lib/http/protocol-lane.ts).
  await (await import('./lib/http/front-door')).openProtocolLane();
  // SIGTERM drains requests, stops the worker and closes the pool (lib/http/shutdown.ts).
  (await import('./lib/http/shutdown')).installShutdown();
}
