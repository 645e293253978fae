import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';

/** Rows of `db.execute` differ by driver (postgres-js: an array; PGlite: `{ rows }`). */
function rowsOf(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result)) return result as Record<string, unknown>[];
  return ((result as { rows?: Record<string, unknown>[] }).rows ?? []) as Record<string, unknown>[];
}

export async function pingDatabase(db: Executor): Promise<void> {
  await db.execute(sql`select 1`);
}

/** Hashes of the migrations drizzle has recorded as applied. */
export async function appliedMigrationHashes(db: Executor): Promise<string[]> {
  const result = await db.execute(sql`select hash from drizzle.__drizzle_migrations order by created_at`);
  return rowsOf(result).map((row) => String(row.hash));
}
