/**
 * API-key authentication cost (not part of CI): pipeline step 6 (`authenticate`) for an `idk_` API key
 * against a session cookie, in-process on the PostgreSQL server (a scratch database migrated by the
 * built service), interleaved calls on the same machine state. Both are one indexed read (the key's
 * hash; the session joined with its user); the session also unseals its iron-session cookie.
 *
 *   npm run build && npx tsx bench/api-keys.ts   (BENCH_ITERATIONS, BENCH_PG_URL)
 */
import type { AuthTerm } from '../lib/contract/operation';
import { api, enroll, signInWithPassword } from './support/accounts';
import { percentile, scratchSecrets, startServer } from './support/server';
import { median } from './support/samples';
import { runBenchmark, scratchDatabase } from './support/database';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 5_000);
const PORT = 3700;
const EMAIL = 'key-owner@example.test';
const PASSWORD = 'quiet lanterns drift over the harbour';
const SECRETS = scratchSecrets();

async function main() {
  const database = await scratchDatabase('keys');
  const databaseUrl = database.url;
  let stop = () => {};
  try {
    const server = await startServer(PORT, { DATABASE_URL: databaseUrl, ...SECRETS });
    stop = server.stop;
    await enroll(server.base, server.dataDir, EMAIL, (token) => api(server.base, '/api/auth/enrollment/password/complete', { password: PASSWORD }, token));
    const browser = await signInWithPassword(server.base, EMAIL, PASSWORD);
    const { api_key: apiKey } = (await api(
      server.base,
      '/api/developer/api-keys',
      { name: 'bench', scopes: ['identity.developer.read'] },
      { cookie: browser.cookie, 'x-csrf-token': browser.csrf },
    )) as { api_key: string };

    Object.assign(process.env, SECRETS, { DATABASE_URL: databaseUrl, BASE_URL: server.base });
    const { authenticate } = await import('../lib/http/auth');
    const keyTerm: AuthTerm = { kind: 'bearer', accepts: ['api_key', 'oauth'], scopes: ['identity.developer.read'] };
    const sessionTerm: AuthTerm = { kind: 'session' };
    const keyRequest = new Request(`${server.base}/api/v1/developer/api-keys`, { headers: { authorization: `Bearer ${apiKey}` } });
    const sessionRequest = new Request(`${server.base}/api/developer/api-keys`, { headers: { cookie: browser.cookie } });
    const time = async (term: AuthTerm, request: Request) => {
      const start = process.hrtime.bigint();
      const actor = await authenticate(term, request, new Date());
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (actor.kind === 'anonymous') throw new Error('not authenticated');
      return elapsed;
    };
    for (let i = 0; i < 500; i++) await Promise.all([time(keyTerm, keyRequest), time(sessionTerm, sessionRequest)]);
    const key: number[] = [];
    const session: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      key.push(await time(keyTerm, keyRequest));
      session.push(await time(sessionTerm, sessionRequest));
    }
    key.sort((a, b) => a - b);
    session.sort((a, b) => a - b);
    const row = (values: number[]) => ({ p50_ms: median(values).toFixed(3), p99_ms: percentile(values, 99).toFixed(3) });
    console.log(`authenticate, ${ITERATIONS} interleaved calls each (in-process, PostgreSQL at ${new URL(databaseUrl).host})`);
    console.table({ 'session cookie': row(session), 'API key (idk_)': row(key) });
    console.log(`API key / session at p50: ${(median(key) / median(session)).toFixed(2)}`);
  } finally {
    stop();
    await database.drop();
  }
}

runBenchmark(main);
