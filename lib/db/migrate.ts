import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'drizzle');
/** Any constant works; it only has to be the same for every instance of this service. */
const MIGRATION_LOCK_KEY = 472_018_337;

type Target = { driver: 'postgres'; url: string } | { driver: 'pglite'; client: PGlite };

/**
 * Applies the committed SQL migrations. On Postgres, several instances may start at once, so the run
 * is serialised with an advisory lock on a dedicated connection.
 */
export async function applyMigrations(target: Target): Promise<void> {
  if (target.driver === 'pglite') {
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(drizzle(target.client), { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const sql = postgres(target.url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
