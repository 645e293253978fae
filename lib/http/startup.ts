import { ConfigError, getConfig } from '@/lib/config';
import { runtimeVerdict } from '@/lib/config/runtime';
import { getDb } from '@/lib/db';
import { installFrontDoor } from './front-door';

/**
 * Server start-up: refuse an unsupported Node.js, fail fast on bad configuration (with a message naming
 * each problem), put the front door before Next (peer stamp, in-flight count, /metrics and /readyz,
 * methods Next cannot route) and apply migrations: this process owns the database.
 */
export async function startServer(): Promise<void> {
  const runtime = runtimeVerdict(process.version);
  if (runtime.verdict === 'refused') {
    console.error(runtime.message);
    process.exit(1);
  }
  if (runtime.verdict === 'untested') console.warn(runtime.message);
  try {
    getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  installFrontDoor(await import('node:http'));
  await getDb();
}
