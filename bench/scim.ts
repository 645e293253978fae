/**
 * SCIM benchmarks (not part of CI), on the PostgreSQL server (a scratch database), against the built
 * server, with an organization of 100,000 provisioned users (written in bulk: the rows a directory's
 * initial sync leaves, without the hours it takes):
 *
 * 1. `filter=userName eq "…"` against a primary-key read (`GET /scim/v2/Users/{id}`); goal: the
 *    filter's p50 at most 2x the read's.
 * 2. The page at `startIndex=99901` against the first page (`count=100` both); goal: p50 at most 2x.
 *    OFFSET over 100,000 rows would not reach it: pages are found through per-block counts.
 *
 *   npm run build && npx tsx bench/scim.ts
 *   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_USERS, BENCH_PG_URL)
 */
import autocannon from 'autocannon';
import postgres from 'postgres';
import { api, enroll, signInWithPassword } from './support/accounts';
import { runBenchmark, scratchDatabase } from './support/database';
import { summarise, toSample, type Sample } from './support/samples';
import { scratchSecrets, startServer } from './support/server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const PORT = 3610;
const EMAIL = 'scim-owner@example.test';
const PASSWORD = 'directories sync in the quiet hours';
const GOAL = 2;
const BLOCK_SIZE = 1024;

/** Accounts, memberships and directory users in bulk, with the per-block counts provisioning keeps. */
async function seedDirectory(sql: postgres.Sql, organizationId: string) {
  await sql`
    insert into users (id, email, email_verified_at, display_name, created_at, updated_at)
    select gen_random_uuid(), 'user-' || n || '@scim-bench.test', now(), 'User ' || n, now(), now()
    from generate_series(1, ${USERS}) as n`;
  await sql`
    insert into memberships (id, organization_id, user_id, role, status, created_at, updated_at)
    select gen_random_uuid(), ${organizationId}, u.id, 'member', 'active', now(), now()
    from users u where u.email like '%@scim-bench.test'`;
  await sql`
    insert into scim_users (id, organization_id, user_id, membership_id, seq, user_name, user_name_key, external_id, given_name, family_name,
                            formatted_name, display_name, emails, created_account, created_at, updated_at)
    select gen_random_uuid(), ${organizationId}, u.id, m.id, row_number() over (order by u.email), u.email, u.email, 'ext-' || u.id, 'Given', 'Family',
           null, u.display_name, jsonb_build_array(jsonb_build_object('value', u.email, 'type', 'work', 'primary', true)), true, now(), now()
    from users u join memberships m on m.user_id = u.id and m.organization_id = ${organizationId}
    where u.email like '%@scim-bench.test'`;
  await sql`insert into scim_directories (organization_id, next_seq) values (${organizationId}, ${USERS + 1})`;
  await sql`
    insert into scim_user_blocks (organization_id, block, live_count)
    select organization_id, seq / ${BLOCK_SIZE}, count(*) from scim_users where organization_id = ${organizationId} group by 1, 2`;
  await sql`analyze`;
}

async function measure(url: string, token: string, seconds: number): Promise<Sample> {
  return toSample(await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${token}` } }));
}

/** Warm-up, then ROUNDS interleaved rounds of each target; medians. */
async function compare(targets: Record<string, string>, token: string) {
  for (const url of Object.values(targets)) await measure(url, token, 2);
  const samples: Record<string, Sample[]> = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) for (const [name, url] of Object.entries(targets)) samples[name]!.push(await measure(url, token, SECONDS));
  const summaries = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, summarise(list)]));
  console.table(summaries);
  if (Object.values(summaries).some((summary) => summary.errors > 0)) throw new Error('errors while measuring: the figures are void');
  return summaries;
}

async function main() {
  const database = await scratchDatabase('scim');
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  let stop = () => {};
  try {
    // The per-token SCIM bucket would otherwise answer 429 to a load generator.
    const server = await startServer(PORT, { DATABASE_URL: database.url, RATE_LIMIT_SCALE: '1000', ...scratchSecrets() });
    stop = server.stop;
    await enroll(server.base, server.dataDir, EMAIL, (token) => api(server.base, '/api/auth/enrollment/password/complete', { password: PASSWORD }, token));
    const browser = await signInWithPassword(server.base, EMAIL, PASSWORD);
    const headers = { cookie: browser.cookie, 'x-csrf-token': browser.csrf };
    const { id } = (await api(server.base, '/api/organizations', { name: 'Bench Directory' }, headers)) as { id: string };
    const { token } = (await api(server.base, `/api/organizations/${id}/scim/tokens`, { name: 'Bench' }, headers)) as { token: string };
    const seeded = Date.now();
    await seedDirectory(sql, id);
    console.log(`seeded ${USERS} directory users in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    const [middle] = await sql<{ id: string; user_name: string }[]>`select id, user_name from scim_users where seq = ${Math.floor(USERS / 2)}`;
    const users = `${server.base}/scim/v2/Users`;

    console.log(`\n1. userName filter against a primary-key read, ${CONNECTIONS} connections, ${ROUNDS} x ${SECONDS}s rounds (medians)`);
    const lookups = await compare(
      {
        'GET /Users/{id}': `${users}/${middle!.id}`,
        'GET /Users?filter=userName eq': `${users}?filter=${encodeURIComponent(`userName eq "${middle!.user_name}"`)}`,
      },
      token,
    );
    const filterRatio = lookups['GET /Users?filter=userName eq']!.p50 / lookups['GET /Users/{id}']!.p50;
    console.log(`p50 filter/read: ${filterRatio.toFixed(2)} (goal <= ${GOAL}: ${filterRatio <= GOAL ? 'met' : 'NOT met'})`);

    const deepStart = USERS - 99;
    console.log(`\n2. page at startIndex=${deepStart} against the first page, count=100`);
    const pages = await compare(
      { 'startIndex=1': `${users}?startIndex=1&count=100`, [`startIndex=${deepStart}`]: `${users}?startIndex=${deepStart}&count=100` },
      token,
    );
    const pageRatio = pages[`startIndex=${deepStart}`]!.p50 / pages['startIndex=1']!.p50;
    console.log(`p50 deep/first: ${pageRatio.toFixed(2)} (goal <= ${GOAL}: ${pageRatio <= GOAL ? 'met' : 'NOT met'})`);
  } finally {
    stop();
    await sql.end();
    await database.drop();
  }
}

runBenchmark(main);
