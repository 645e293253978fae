/**
 * "No row written by a refused request", measured exactly and cheaply: row triggers on every table of
 * the public schema (installed in the test database only, after migrations, so a table a migration
 * adds is covered without touching this file) count inserts, updates and deletes per table in
 * `probe_writes`. A write that rolls back is not counted (the count is in the same transaction);
 * a write that leaves a row as it was still is. Reading the counts is one small query.
 */
import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';

interface Bookkeeping {
  table: string;
  /** Updates that set only these columns are not counted. */
  columns?: string[];
  /** Inserted rows matching this predicate (over NEW) are not counted. */
  insertsWhere?: string;
  reason: string;
}

/**
 * What a refused request may legitimately write; anything else it writes is a defect. Each entry is
 * bookkeeping of the refusal itself, without which refusing would be cheaper for an attacker.
 */
export const BOOKKEEPING: readonly Bookkeeping[] = [
  {
    table: 'rate_limit_counters',
    reason: 'pipeline step 4 spends the client bucket before anything can refuse: bad requests must count, or a flood of them is free',
  },
  {
    table: 'security_event_counts',
    reason:
      'a refusal that is a security event (401, 403, CSRF, Origin, 429, a run of invalid input) is counted per kind and hour (lib/http/security-events.ts)',
  },
  {
    table: 'idempotency_records',
    reason: 'a 4xx answer is stored for its Idempotency-Key and replayed (docs/decisions.md, Idempotency)',
  },
  {
    table: 'audit_events',
    insertsWhere: `NEW.outcome = 'failure'`,
    reason: 'failed sign-ins, step-ups and code checks are security records (a success record written by a refused request is still caught)',
  },
  {
    table: 'password_credentials',
    columns: ['failed_attempts', 'locked_until', 'lockouts'],
    reason: 'password lockout counts failed passwords (10 in a row lock password sign-in)',
  },
  {
    table: 'scim_tokens',
    columns: ['last_used_at'],
    reason: 'resolving a SCIM token records its use at most once a minute (shown in the console), whatever the answer',
  },
  {
    table: 'sessions',
    columns: ['last_seen_at'],
    reason: 'resolving a session cookie touches it at most once a minute (idle expiry), whatever the answer',
  },
];

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (Array.isArray(result) ? result : ((result as { rows?: Row[] }).rows ?? [])) as Row[];
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const COUNTER = 'probe_writes';

async function run(statement: string): Promise<Row[]> {
  return rowsOf(await (await getDb()).execute(sql.raw(statement)));
}

function triggersFor(table: string, columns: string[]): string[] {
  const entry = BOOKKEEPING.find((b) => b.table === table);
  if (entry && !entry.columns && !entry.insertsWhere) return [];
  for (const column of entry?.columns ?? []) if (!columns.includes(column)) throw new Error(`BOOKKEEPING names a missing column: ${table}.${column}`);
  const counted = columns.filter((c) => !(entry?.columns ?? []).includes(c));
  const on = `on ${ident(table)} for each row`;
  const name = (what: string) => ident(`probe_${what}_${table}`);
  return [
    `create trigger ${name('insert')} after insert ${on}${entry?.insertsWhere ? ` when (not (${entry.insertsWhere}))` : ''} execute function probe_count_write()`,
    `create trigger ${name('update')} after update of ${counted.map(ident).join(', ')} ${on} execute function probe_count_write()`,
    `create trigger ${name('delete')} after delete ${on} execute function probe_count_write()`,
  ];
}

/** Installs the counting triggers (once per test database). */
export async function installWriteCounter(): Promise<void> {
  const columns = await run(`select table_name, column_name from information_schema.columns where table_schema = 'public' order by ordinal_position`);
  const tables = new Map<string, string[]>();
  for (const row of columns) tables.set(String(row.table_name), [...(tables.get(String(row.table_name)) ?? []), String(row.column_name)]);
  for (const entry of BOOKKEEPING) if (!tables.has(entry.table)) throw new Error(`BOOKKEEPING names a missing table: ${entry.table}`);
  const statements = [
    `create table ${COUNTER} (table_name text primary key, writes bigint not null)`,
    `create function probe_count_write() returns trigger language plpgsql as $$
       begin
         insert into ${COUNTER} values (TG_TABLE_NAME, 1) on conflict (table_name) do update set writes = ${COUNTER}.writes + 1;
         return null;
       end $$`,
    ...[...tables].flatMap(([table, names]) => triggersFor(table, names)),
  ];
  for (const statement of statements) await run(statement);
}

/** Writes per table so far. */
export async function writeCounts(): Promise<Record<string, number>> {
  return Object.fromEntries((await run(`select table_name, writes from ${COUNTER}`)).map((row) => [String(row.table_name), Number(row.writes)]));
}

/** Tables written between two counts, e.g. ["users +1"]. */
export function writesBetween(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys(after)
    .filter((table) => after[table] !== (before[table] ?? 0))
    .map((table) => `${table} +${after[table]! - (before[table] ?? 0)}`);
}
