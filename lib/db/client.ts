/**
 * One database handle per process, created lazily (never at import time: `next build` imports route
 * modules) and kept on globalThis because `next dev` may evaluate this module once per route bundle.
 * DATABASE_URL selects Postgres through postgres-js; unset, the service runs on embedded PGlite under
 * DATA_DIR. Migrations are applied before the handle is handed out.
 */
import { mkdirSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { getConfig } from '@/lib/config';
import * as schema from './schema';
import { applyMigrations } from './migrate';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Repositories accept either, so a service can compose them inside one transaction. */
export type Executor = Db | Tx;

interface Handle {
  db: Db;
  driver: 'postgres' | 'pglite';
  close: () => Promise<void>;
}

const holder = globalThis as unknown as { __identityDb?: Promise<Handle> };

async function open(): Promise<Handle> {
  const config = getConfig();
  if (config.database.kind === 'postgres') {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const sql = postgres(config.database.url, { max: 10, onnotice: () => {} });
    const db = drizzle(sql, { schema }) as unknown as Db;
    await applyMigrations({ driver: 'postgres', url: config.database.url });
    return { db, driver: 'postgres', close: () => sql.end({ timeout: 5 }) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  if (config.database.dir) mkdirSync(config.database.dir, { recursive: true });
  const client = config.database.dir ? new PGlite(config.database.dir) : new PGlite();
  const db = drizzle(client, { schema }) as unknown as Db;
  await applyMigrations({ driver: 'pglite', client });
  return { db, driver: 'pglite', close: () => client.close() };
}

async function handle(): Promise<Handle> {
  if (!holder.__identityDb) {
    // A failed open must not be cached: the next request retries (e.g. Postgres came back).
    holder.__identityDb = open().catch((error: unknown) => {
      holder.__identityDb = undefined;
      throw error;
    });
  }
  return holder.__identityDb;
}

export async function getDb(): Promise<Db> {
  return (await handle()).db;
}

export async function getDbDriver(): Promise<Handle['driver']> {
  return (await handle()).driver;
}

export async function closeDb(): Promise<void> {
  const pending = holder.__identityDb;
  holder.__identityDb = undefined;
  if (pending) await (await pending).close();
}

/** One transaction per use case: everything a service writes (rows, audit, outbox) commits together. */
export async function inTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return (await getDb()).transaction(work);
}
