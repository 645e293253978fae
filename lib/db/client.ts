/**
 * One database handle per process, created lazily (never at import time: `next build` imports route
 * modules) and kept on globalThis because `next dev` may evaluate this module once per route bundle.
 * DATABASE_URL selects Postgres through postgres-js; unset, the service runs on embedded PGlite under
 * DATA_DIR. Migrations are applied before the handle is handed out.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { getConfig } from '@/lib/config';
import { logLine, metrics } from '@/lib/observability';
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

// On globalThis like the handle: the provider (a process singleton) may have been built by another
// bundle's copy of this module, and its adapter must still see the scope the pipeline opened.
const scopeHolder = globalThis as unknown as { __identityTransactionScopes?: AsyncLocalStorage<TransactionScope> };
const scopes = (scopeHolder.__identityTransactionScopes ??= new AsyncLocalStorage<TransactionScope>());

const POOL_SIZE = 10;

/**
 * postgres-js retries a failed connection after a delay that grows to 20 s, and every query queued
 * for a connection waits through it: while the database is down, requests would hang instead of
 * answering 503. A short, capped delay lets each queued query fail fast, and the pool reconnects
 * within a second of the database's return (tests/system/database-outage.test.ts).
 */
function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 1);
}

/**
 * Counts the transactions holding a pooled connection and how long each waited for it (pool wait and
 * BEGIN): postgres-js keeps its pool to itself, and a use case's work is one transaction, so this is
 * what pool pressure looks like from here. Savepoints (tx.transaction) are inside and not counted.
 */
function measured(db: Db): Db {
  const begin = db.transaction.bind(db);
  db.transaction = (async (work: (tx: Tx) => Promise<unknown>, config?: unknown) => {
    const m = metrics();
    const asked = performance.now();
    return begin(
      async (tx) => {
        m.dbTransactionWait.observe((performance.now() - asked) / 1000);
        m.dbTransactionsActive.inc();
        try {
          return await work(tx);
        } finally {
          m.dbTransactionsActive.dec();
        }
      },
      config as Parameters<Db['transaction']>[1],
    );
  }) as Db['transaction'];
  return db;
}

async function open(): Promise<Handle> {
  const config = getConfig();
  if (config.database.kind === 'postgres') {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const sql = postgres(config.database.url, {
      max: POOL_SIZE,
      connect_timeout: config.databaseConnectTimeoutSeconds,
      backoff: reconnectDelaySeconds,
      onnotice: () => {},
    });
    const db = measured(drizzle(sql, { schema }) as unknown as Db);
    metrics().dbPoolSize.set(POOL_SIZE);
    await applyMigrations({ driver: 'postgres', url: config.database.url });
    return { db, driver: 'postgres', close: () => sql.end({ timeout: 5 }) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  if (config.database.dir) mkdirSync(config.database.dir, { recursive: true });
  const client = config.database.dir ? new PGlite(config.database.dir) : new PGlite();
  const db = measured(drizzle(client, { schema }) as unknown as Db);
  // PGlite is one connection: every transaction waits for the one before.
  metrics().dbPoolSize.set(1);
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

/**
 * The database for the current work: the plain handle, or, inside a transaction scope (below), the
 * scope's transaction. Every repository call of a use case then joins the scope without being told.
 */
export async function getDb(): Promise<Db> {
  const db = (await handle()).db;
  const scope = scopes.getStore();
  return scope?.isOpen() ? ((await scope.transactionOn(db)) as unknown as Db) : db;
}

export async function getDbDriver(): Promise<Handle['driver']> {
  return (await handle()).driver;
}

export async function closeDb(): Promise<void> {
  const pending = holder.__identityDb;
  holder.__identityDb = undefined;
  if (pending) await (await pending).close();
}

/**
 * One transaction per use case: everything a service writes (rows, audit, outbox) commits together.
 * Inside a transaction scope it is a savepoint of the scope's transaction: its work is undone alone
 * when it throws, and commits only with the scope.
 */
export async function inTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return (await getDb()).transaction(work);
}

function codeOf(error: unknown): string | null {
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.cause?.code ?? (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

const ROLLBACK = Symbol('roll back the transaction scope');

/**
 * Makes a whole piece of work (an idempotent execution: the handler's writes and the stored answer)
 * one transaction, whichever services and repositories it calls: `run` carries the scope through
 * async calls (AsyncLocalStorage), getDb() inside it answers the scope's transaction and inTransaction
 * a savepoint. The transaction begins at the first database access (work that never touches the
 * database holds no connection, and on PGlite, whose single connection serialises transactions, does
 * not block other requests) and ends only with commit() or rollback(). Once ended, code still running
 * in the scope gets the plain handle again. Inside a scope, never wait for work that runs outside it
 * and needs the database: on PGlite that waits for this very transaction.
 */
export class TransactionScope {
  private opened: Promise<Tx> | null = null;
  private ended: Promise<void> | null = null;
  private decide: ((commit: boolean) => void) | null = null;
  private closed = false;

  run<T>(work: () => Promise<T>): Promise<T> {
    return scopes.run(this, work);
  }

  isOpen(): boolean {
    return !this.closed;
  }

  transactionOn(db: Db): Promise<Tx> {
    this.opened ??= new Promise<Tx>((resolve, reject) => {
      this.ended = db.transaction(async (tx) => {
        const decision = new Promise<boolean>((settle) => (this.decide = settle));
        resolve(tx);
        if (!(await decision)) throw ROLLBACK;
      });
      // If BEGIN fails, the work waiting for the transaction fails with it.
      this.ended.catch(reject);
    });
    return this.opened;
  }

  /** Commits what the work wrote (nothing to do if it never touched the database); throws if COMMIT fails. */
  async commit(): Promise<void> {
    this.closed = true;
    if (!this.opened) return;
    await this.opened;
    this.decide!(true);
    await this.ended;
  }

  /** Rolls back whatever the work wrote. Never throws: a transaction that failed is gone anyway. */
  async rollback(): Promise<void> {
    this.closed = true;
    if (!this.opened) return;
    this.decide?.(false);
    await this.ended!.catch((error: unknown) => {
      // Only the error's name and code: a failed statement's message may quote its parameters.
      if (error !== ROLLBACK) logLine('error', 'transaction_scope_failed', { error: error instanceof Error ? error.name : 'unknown', code: codeOf(error) });
    });
  }
}
