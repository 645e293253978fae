/**
 * Runs once when the server process starts. Fails fast on bad configuration, stamps requests with
 * their peer address (for rate limits), and applies migrations: this process owns the database.
 */
export async function register() {
  // eslint-disable-next-line no-restricted-properties -- Next's own runtime marker, not configuration
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getConfig, ConfigError } = await import('@/lib/config');
  try {
    getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { installPeerStamp } = await import('@/lib/http/client-address');
  await installPeerStamp();
  const { getDb } = await import('@/lib/db');
  await getDb();
}
