/** Creates better-auth's tables with its own migrations (what its CLI's `migrate` runs); run by bench/session-read.ts. */
import { getMigrations } from 'better-auth/db/migration';
import { peerOptions } from './auth-options';

async function main() {
  const options = peerOptions(process.env);
  await (await getMigrations(options)).runMigrations();
  await (options.database as { end: () => Promise<void> }).end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
