/**
 * Runs once when the server process starts. The Node-only start-up (configuration check, peer
 * stamping, migrations) lives in lib/startup.ts, loaded only in the Node.js runtime.
 */
export async function register() {
  // eslint-disable-next-line no-restricted-properties -- Next's own runtime marker, not configuration
  if (process.env.NEXT_RUNTIME === 'nodejs') await (await import('./lib/http/startup')).startServer();
}
