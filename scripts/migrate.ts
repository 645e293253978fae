/**
 * Applies the committed migrations to the configured database (`npm run db:migrate`). The service
 * also does this itself on start-up; this script is for operators who migrate before rolling out.
 * In embedded mode, run it only while the service is stopped: PGlite has no cross-process lock.
 */
import { closeDb, getDb } from '../lib/db';
import { getConfig } from '../lib/config';

async function main() {
  const config = getConfig();
  await getDb();
  await closeDb();
  console.log(`migrations applied (${config.database.kind === 'postgres' ? 'postgres' : `embedded at ${config.database.dir}`})`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
