import { ConfigError, getConfig } from '@/lib/config';
import { getDb } from '@/lib/db';
import { installPeerStamp } from './client-address';

/**
 * Server start-up: fail fast on bad configuration (with a message naming each problem), stamp requests
 * with their peer address (for rate limits), and apply migrations: this process owns the database.
 */
export async function startServer(): Promise<void> {
  try {
    getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  await installPeerStamp();
  await getDb();
}
