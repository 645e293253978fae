/**
 * Organization benchmarks (not part of CI), on the PostgreSQL server (a scratch database):
 *
 * 1. Members of a 100,000-member organization, `GET /api/organizations/{id}/members?limit=100` on the
 *    built server: the first page against the page at depth 100,000 (the cursor reached by walking
 *    every page through the API). Keyset pagination should make depth irrelevant; goal: the deep page's
 *    p50 at most 1.5x the first page's.
 * 2. The authorize step's added cost: pipeline step 8 (`authorize`) for a tenant operation (membership,
 *    permissions and policies resolved in one read) against a session-only operation, in-process on the
 *    same session actor, interleaved; goal: under 1 ms added at p50.
 *
 *   npm run build && npx tsx bench/organizations.ts
 *   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_MEMBERS, BENCH_ITERATIONS, BENCH_PG_URL)
 */
import autocannon from 'autocannon';
import postgres from 'postgres';
import { api, enroll, signInWithPassword, type BenchBrowser as Browser } from './support/accounts';
import { percentile, scratchSecrets, startServer } from './support/server';
import { runBenchmark, scratchDatabase } from './support/database';
import { median, summarise, toSample, type Sample } from './support/samples';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 5_000);
const PORT = 3600;
const EMAIL = 'org-owner@example.test';
const PASSWORD = 'quiet lanterns drift over the harbour';
const PAGE_GOAL = 1.5;
const AUTHORIZE_GOAL_MS = 1;

const SECRETS = scratchSecrets();

/** 100k people and their memberships, written in bulk (the API would take hours; the rows are the same). */
async function seedMembers(sql: postgres.Sql, organizationId: string) {
  await sql`
    insert into users (id, email, email_verified_at, display_name, created_at, updated_at)
    select gen_random_uuid(), 'member-' || n || '@bench.test', now(), 'Member ' || n, now() - (n || ' seconds')::interval, now()
    from generate_series(1, ${MEMBERS}) as n`;
  await sql`
    insert into memberships (id, organization_id, user_id, role, status, created_at, updated_at)
    select gen_random_uuid(), ${organizationId}, u.id, 'member', 'active', u.created_at, u.created_at
    from users u where u.email like '%@bench.test'`;
  await sql`analyze`;
}

/**
 * Walks every page through the API; returns the cursor of the deepest FULL page (100 items, so both
 * measured pages carry the same amount of data) and how deep it starts.
 */
async function deepestCursor(base: string, path: string, browser: Browser): Promise<{ cursor: string; depth: number }> {
  let cursor: string | null = null;
  let deepest = { cursor: '', depth: 0 };
  let depth = 0;
  do {
    const response = await fetch(`${base}${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { cookie: browser.cookie } });
    if (response.status !== 200) throw new Error(`members page at depth ${depth}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { members: unknown[]; next_cursor: string | null };
    if (cursor && body.members.length === 100) deepest = { cursor, depth };
    depth += body.members.length;
    cursor = body.next_cursor;
  } while (cursor);
  return deepest;
}

async function measure(url: string, cookie: string, seconds: number): Promise<Sample> {
  return toSample(await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { cookie } }));
}

async function pagingBenchmark(base: string, browser: Browser, organizationId: string) {
  const path = `/api/organizations/${organizationId}/members`;
  const started = Date.now();
  const { cursor, depth } = await deepestCursor(base, path, browser);
  console.log(`walked every page of 100 through the API in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const targets = { first: `${base}${path}?limit=100`, deep: `${base}${path}?limit=100&cursor=${encodeURIComponent(cursor)}` };
  await measure(targets.first, browser.cookie, 3);
  await measure(targets.deep, browser.cookie, 3);
  const samples = { first: [] as Sample[], deep: [] as Sample[] };
  for (let round = 0; round < ROUNDS; round++) {
    samples.first.push(await measure(targets.first, browser.cookie, SECONDS));
    samples.deep.push(await measure(targets.deep, browser.cookie, SECONDS));
  }
  const first = summarise(samples.first);
  const deep = summarise(samples.deep);
  console.log(`\n1. members list of a ${MEMBERS}-member organization, ${CONNECTIONS} connections, ${ROUNDS} x ${SECONDS}s rounds (medians)`);
  console.table({ 'first page (100 items)': first, [`page at depth ${depth} (100 items)`]: deep });
  if (first.errors + deep.errors > 0) throw new Error('errors while measuring: the figures are void');
  const ratio = deep.p50 / first.p50;
  console.log(
    `p50 deep/first: ${ratio.toFixed(2)} (goal <= ${PAGE_GOAL}: ${ratio <= PAGE_GOAL ? 'met' : 'NOT met'}); throughput first ${first.rps.toFixed(0)} req/s, deep ${deep.rps.toFixed(0)} req/s`,
  );
}

/** In-process: pipeline step 8 for a tenant operation against a session-only one, same actor, interleaved. */
async function authorizeBenchmark(databaseUrl: string, base: string, browser: Browser, organizationId: string) {
  Object.assign(process.env, SECRETS, { DATABASE_URL: databaseUrl, BASE_URL: base });
  const { authorize } = await import('../lib/http/auth');
  const { credentialStores } = await import('../lib/http/credentials');
  const { operation } = await import('../tests/helpers/http');
  const tenantOp = operation('GET', '/api/organizations/{id}');
  const sessionOp = operation('GET', '/api/organizations');
  const actor = await credentialStores.session(browser.cookie.slice('session='.length), new Date());
  if (!actor) throw new Error('the session did not resolve in-process');
  const request = new Request(`${base}/api/organizations/${organizationId}`, { headers: { cookie: browser.cookie } });
  const params = { id: organizationId };
  const time = async (op: typeof tenantOp) => {
    const start = process.hrtime.bigint();
    await authorize(op, actor, params, request, new Date());
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  for (let i = 0; i < 500; i++) await Promise.all([time(tenantOp), time(sessionOp)]);
  const tenant: number[] = [];
  const session: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    tenant.push(await time(tenantOp));
    session.push(await time(sessionOp));
  }
  tenant.sort((x, y) => x - y);
  session.sort((x, y) => x - y);
  const row = (values: number[]) => ({ p50_ms: median(values).toFixed(3), p99_ms: percentile(values, 99).toFixed(3) });
  console.log(`\n2. authorize step, ${ITERATIONS} interleaved calls each (in-process, PostgreSQL at ${new URL(databaseUrl).host})`);
  console.table({ 'session-only (GET /api/organizations)': row(session), 'tenant (GET /api/organizations/{id})': row(tenant) });
  const added = median(tenant) - median(session);
  console.log(`added at p50: ${added.toFixed(3)} ms (goal < ${AUTHORIZE_GOAL_MS} ms: ${added < AUTHORIZE_GOAL_MS ? 'met' : 'NOT met'})`);
}

async function main() {
  const database = await scratchDatabase('orgs');
  const databaseUrl = database.url;
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  let stop = () => {};
  try {
    const server = await startServer(PORT, { DATABASE_URL: databaseUrl, ...SECRETS });
    stop = server.stop;
    await enroll(server.base, server.dataDir, EMAIL, (token) => api(server.base, '/api/auth/enrollment/password/complete', { password: PASSWORD }, token));
    const browser = await signInWithPassword(server.base, EMAIL, PASSWORD);
    const { id } = (await api(server.base, '/api/organizations', { name: 'Bench Org' }, { cookie: browser.cookie, 'x-csrf-token': browser.csrf })) as {
      id: string;
    };
    const seeded = Date.now();
    await seedMembers(sql, id);
    console.log(`seeded ${MEMBERS} members in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    await pagingBenchmark(server.base, browser, id);
    await authorizeBenchmark(databaseUrl, server.base, browser, id);
  } finally {
    stop();
    await sql.end();
    await database.drop();
  }
}

runBenchmark(main);
