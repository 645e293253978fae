/**
 * The secret scan after the e2e suite (scripts/test-all.sh): the secrets the suite itself created or
 * typed (passwords, e-mailed codes and link tokens, session cookies, CSRF tokens, enrollment and
 * recovery tokens, API keys, webhook secrets, client secrets, SCIM tokens, OAuth tokens) must not be
 * in clear in the database dump, in any line the server wrote, or in any response other than the one
 * that disclosed it. Each kind must have been seen at least once, so the scan cannot pass by searching
 * for nothing.
 *
 *   npx tsx scripts/secret-scan.ts     (after `npx playwright test`; DATABASE_URL as the e2e server had it)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Exchange } from '../e2e/support/recorder';

const ROOT = path.resolve(__dirname, '..');
const RECORD_DIR = path.join(ROOT, 'test-results/e2e-recorded');
const MAIL_DIR = path.join(ROOT, 'test-results/e2e-mail');
const SERVER_DIR = path.join(ROOT, 'test-results/e2e-server');

/** Where a secret may legitimately appear in response bodies: nowhere, or only in the response that disclosed it. */
type Disclosure = 'never' | 'its-own-response';

interface Seed {
  kind: string;
  value: string;
  disclosure: Disclosure;
  /** Index of the exchange whose response disclosed it. */
  origin?: number;
}

const REQUIRED_KINDS = ['password', 'email_code', 'session_cookie', 'csrf_token', 'api_key', 'webhook_secret', 'client_secret', 'scim_token'];

function exchanges(): Exchange[] {
  if (!existsSync(RECORD_DIR)) throw new Error(`${RECORD_DIR} is missing: run the e2e suite first`);
  return readdirSync(RECORD_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(path.join(RECORD_DIR, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Exchange),
    );
}

function parsedBody(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}

/** Every string value under a key, anywhere in a JSON document. */
function valuesOf(document: unknown, key: RegExp, found: string[] = []): string[] {
  if (Array.isArray(document)) for (const item of document) valuesOf(item, key, found);
  else if (document && typeof document === 'object')
    for (const [name, value] of Object.entries(document)) {
      if (typeof value === 'string' && key.test(name)) found.push(value);
      else valuesOf(value, key, found);
    }
  return found;
}

const PREFIXED = [
  { kind: 'api_key', pattern: /\bidk_[A-Za-z0-9_-]{20,}/g },
  { kind: 'webhook_secret', pattern: /\bwhsec_[A-Za-z0-9+/=_-]{20,}/g },
  { kind: 'scim_token', pattern: /\bscim_[A-Za-z0-9_-]{20,}/g },
];

const DISCLOSED_KEYS = [
  { kind: 'client_secret', key: /^client_secret$/ },
  { kind: 'enrollment_token', key: /^enrollment_token$/ },
  { kind: 'recovery_token', key: /^recovery_token$/ },
  // ID tokens are signed assertions, not credentials; two grants in one second can carry the same one.
  { kind: 'oauth_token', key: /^(access_token|refresh_token)$/ },
];

function collectSeeds(recorded: Exchange[]): Seed[] {
  const seeds = new Map<string, Seed>();
  const add = (seed: Seed) => {
    // Short or common values would match by accident; every real secret here is longer.
    if (seed.value.length < 6 || (seed.kind !== 'email_code' && seed.value.length < 12)) return;
    if (!seeds.has(seed.value)) seeds.set(seed.value, seed);
  };
  recorded.forEach((exchange, index) => {
    const sent = parsedBody(exchange.requestBody);
    for (const value of valuesOf(sent, /password/i)) add({ kind: 'password', value, disclosure: 'never' });
    for (const value of valuesOf(sent, /^code$/)) if (/^\d{6}$/.test(value)) add({ kind: 'email_code', value, disclosure: 'never' });
    for (const cookie of exchange.setCookies) {
      const value = /^[^=]*session[^=]*=([^;]+)/i.exec(cookie)?.[1];
      if (value) add({ kind: 'session_cookie', value, disclosure: 'never' });
    }
    if (!exchange.responseBody || !/json/.test(exchange.responseType)) return;
    const answered = parsedBody(exchange.responseBody);
    // CSRF tokens are handed to the page again and again by design: only the database and logs are searched.
    for (const value of valuesOf(answered, /^csrf_token$/)) add({ kind: 'csrf_token', value, disclosure: 'its-own-response', origin: -1 });
    for (const { kind, key } of DISCLOSED_KEYS)
      for (const value of valuesOf(answered, key)) add({ kind, value, disclosure: 'its-own-response', origin: index });
    for (const { kind, pattern } of PREFIXED)
      for (const [value] of exchange.responseBody.matchAll(pattern)) add({ kind, value, disclosure: 'its-own-response', origin: index });
  });
  if (existsSync(MAIL_DIR))
    for (const file of readdirSync(MAIL_DIR)) {
      const text = readFileSync(path.join(MAIL_DIR, file), 'utf8').replace(/=\r?\n/g, '');
      for (const [value] of text.matchAll(/(?<![\d-])\d{6}(?![\d-])/g)) add({ kind: 'email_code', value, disclosure: 'never' });
      for (const [, value] of text.matchAll(/[?&]token=3D([A-Za-z0-9_%-]{16,})/g))
        add({ kind: 'link_token', value: decodeURIComponent(value!), disclosure: 'its-own-response', origin: -1 });
      for (const [, value] of text.matchAll(/[?&]token=([A-Za-z0-9_%-]{16,})/g))
        add({ kind: 'link_token', value: decodeURIComponent(value!), disclosure: 'its-own-response', origin: -1 });
    }
  return [...seeds.values()];
}

/** Every row of every table, as JSON text: the database as a dump would hold it. */
async function databaseText(): Promise<string> {
  const query = `select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`;
  const rowsOf = (schema: string, table: string) => `select row_to_json(t)::text as row from "${schema}"."${table}" t`;
  const lines: string[] = [];
  if (process.env.DATABASE_URL) {
    const { default: postgres } = await import('postgres');
    const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      for (const { table_schema, table_name } of await sql.unsafe<{ table_schema: string; table_name: string }[]>(query))
        for (const { row } of await sql.unsafe<{ row: string }[]>(rowsOf(table_schema, table_name))) lines.push(row);
    } finally {
      await sql.end();
    }
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = new PGlite(path.join(SERVER_DIR, 'data', 'pglite'));
    try {
      for (const { table_schema, table_name } of (await db.query<{ table_schema: string; table_name: string }>(query)).rows)
        for (const { row } of (await db.query<{ row: string }>(rowsOf(table_schema, table_name))).rows) lines.push(row);
    } finally {
      await db.close();
    }
  }
  return lines.join('\n');
}

/**
 * Whether `text` holds `value` as a whole token, not as part of a longer one: a six-digit code inside
 * a UUID or a longer number is a coincidence, not a leak.
 */
function holds(text: string, value: string): boolean {
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + value.length] ?? ' ';
    if (!/[A-Za-z0-9]/.test(before) && !/[A-Za-z0-9]/.test(after)) return true;
  }
  return false;
}

function masked(value: string): string {
  return `${value.slice(0, 4)}…(${value.length} chars)`;
}

async function main() {
  const recorded = exchanges();
  const seeds = collectSeeds(recorded);
  const byKind = new Map<string, number>();
  for (const seed of seeds) byKind.set(seed.kind, (byKind.get(seed.kind) ?? 0) + 1);
  console.log(`secret scan: ${recorded.length} recorded exchanges, ${seeds.length} secrets: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const problems: string[] = [];
  for (const kind of REQUIRED_KINDS) if (!byKind.get(kind)) problems.push(`no ${kind} was seen: the scan would search for nothing of that kind`);

  const database = await databaseText();
  const log = readFileSync(path.join(SERVER_DIR, 'server.log'), 'utf8');
  console.log(`secret scan: database ${database.length} characters, server log ${log.split('\n').length} lines`);
  if (database.length === 0 || log.length === 0) problems.push('the database dump or the server log is empty');

  for (const seed of seeds) {
    if (holds(database, seed.value)) problems.push(`${seed.kind} ${masked(seed.value)} is in the database in clear`);
    if (holds(log, seed.value)) problems.push(`${seed.kind} ${masked(seed.value)} is in the server log`);
    if (seed.kind === 'csrf_token' || seed.kind === 'link_token') continue;
    recorded.forEach((exchange, index) => {
      if (!exchange.responseBody || !holds(exchange.responseBody, seed.value)) return;
      if (seed.disclosure === 'its-own-response' && index === seed.origin) return;
      problems.push(`${seed.kind} ${masked(seed.value)} is in the answer to ${exchange.method} ${new URL(exchange.url).pathname}`);
    });
  }
  if (problems.length > 0) {
    console.error(`secret scan FAILED:\n- ${[...new Set(problems)].join('\n- ')}`);
    process.exit(1);
  }
  console.log('secret scan: no secret in clear in the database, the server log or another answer');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
