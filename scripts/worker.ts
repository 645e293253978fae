/**
 * The webhook delivery worker as its own process (`npm run worker`), for operators who run delivery
 * apart from the web service (then set WEBHOOK_WORKER_ENABLED=false on the service, or keep both:
 * leases keep any number of workers apart). Embedded PGlite is single-process: use it with Postgres.
 * SIGTERM or SIGINT stops it cleanly: sends in flight finish or give their leases back.
 */
import { closeDb, getDb } from '../lib/db';
import { getConfig } from '../lib/config';
import { startWebhookWorker } from '../lib/webhooks';

async function main() {
  const config = getConfig();
  await getDb();
  const worker = startWebhookWorker();
  console.log(`webhook worker ${worker.owner} polling every ${config.webhookWorker.intervalMs} ms (${config.database.kind})`);
  const stop = () => {
    void worker
      .stop()
      .then(() => closeDb())
      .then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
