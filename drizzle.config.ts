import { defineConfig } from 'drizzle-kit';

// Only `drizzle-kit generate` is used (offline): migrations are applied by the service itself on
// start-up (lib/db/migrate.ts), never by drizzle-kit against a live embedded data directory.
export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/db/schema/index.ts',
  out: './drizzle',
  strict: true,
  verbose: false,
});
