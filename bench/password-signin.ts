/**
 * Accounts benchmark (not part of CI), in one run on one machine:
 *  1. raw PBKDF2-HMAC-SHA256 throughput at the production work factor, all cores busy;
 *  2. password sign-in throughput at saturation through the full app (pipeline, rate limits, lockout
 *     bookkeeping, session issue), with RATE_LIMIT_SCALE raised (limits stay on), spread over
 *     BENCH_ACCOUNTS accounts as real traffic is: one account signing in hundreds of times would also
 *     measure the session limit ending its oldest session at every sign-in (SESSIONS_PER_ACCOUNT);
 *     on the embedded database (the default) and on the PostgreSQL server (BENCH_PG_URL);
 *  3. p50/p99 latency of passkey sign-in verification (options + assertion verify + session).
 *
 *   npm run build && npx tsx bench/password-signin.ts     (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_PASSKEY_ROUNDS)
 */
import { pbkdf2, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { SoftAuthenticator } from '../tests/helpers/soft-authenticator';
import { api, enroll } from './support/accounts';
import { PG_URL, scratchDatabase } from './support/database';
import { percentile, scratchSecrets, startServer } from './support/server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const PASSKEY_ROUNDS = Number(process.env.BENCH_PASSKEY_ROUNDS ?? 300);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const ITERATIONS = 600_000;
const PORT = 3310;
// Not built from the account's address ("bench"): the service refuses context words.
const PASSWORD = 'copper kettles hum softly at dawn';

async function rawPbkdf2PerSecond(): Promise<number> {
  const derive = promisify(pbkdf2);
  const deadline = Date.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: availableParallelism() }, async () => {
      while (Date.now() < deadline) {
        await derive(randomBytes(32), randomBytes(16), ITERATIONS, 32, 'sha256');
        done += 1;
      }
    }),
  );
  return done / SECONDS;
}

interface SignInFigure {
  rate: number;
  p50: number;
  p99: number;
  failures: number;
}

/** Password sign-ins per second at saturation through a server, over ACCOUNTS enrolled accounts. */
async function signInThroughput(base: string, dataDir: string): Promise<SignInFigure> {
  const emails = Array.from({ length: ACCOUNTS }, (_, i) => `bench${i}@example.test`);
  for (const email of emails) await enroll(base, dataDir, email, (token) => api(base, '/api/auth/enrollment/password/complete', { password: PASSWORD }, token));
  let next = 0;
  const result = await autocannon({
    url: `${base}/api/auth/signin/password`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ email: emails[next++ % emails.length], password: PASSWORD }) }),
      },
    ],
  });
  const failures = result.non2xx + result.errors;
  return { rate: (result.requests.total - failures) / SECONDS, p50: result.latency.p50, p99: result.latency.p99, failures };
}

async function passkeyLatencies(base: string, dataDir: string): Promise<number[]> {
  const authenticator = new SoftAuthenticator(base);
  await enroll(base, dataDir, 'passkey@example.test', async (token) => {
    const { options, challenge_id } = await api(base, '/api/auth/enrollment/passkey/options', {}, token);
    await api(base, '/api/auth/enrollment/passkey/complete', { challenge_id, credential: authenticator.create(options) }, token);
  });
  const latencies: number[] = [];
  for (let i = 0; i < PASSKEY_ROUNDS; i++) {
    const { options, challenge_id } = await api(base, '/api/auth/signin/passkey/options', {});
    const credential = authenticator.get(options);
    const started = performance.now();
    await api(base, '/api/auth/signin/passkey/complete', { challenge_id, credential });
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

async function main() {
  console.log(`raw PBKDF2 (${ITERATIONS} iterations, ${availableParallelism()} parallel) for ${SECONDS}s ...`);
  const raw = await rawPbkdf2PerSecond();
  const serverEnv = { RATE_LIMIT_SCALE: '100000', PASSWORD_PBKDF2_ITERATIONS: String(ITERATIONS) };
  const figures: Record<string, SignInFigure> = {};
  let latencies: number[] = [];

  console.log(`password sign-in on the embedded database, ${CONNECTIONS} connections for ${SECONDS}s over ${ACCOUNTS} accounts ...`);
  const embedded = await startServer(PORT, serverEnv);
  try {
    figures['embedded PGlite'] = await signInThroughput(embedded.base, embedded.dataDir);
    console.log(`passkey sign-in, ${PASSKEY_ROUNDS} sequential ceremonies ...`);
    latencies = await passkeyLatencies(embedded.base, embedded.dataDir);
  } finally {
    embedded.stop();
  }

  console.log(`password sign-in on PostgreSQL (${PG_URL}), same load ...`);
  const database = await scratchDatabase('signin');
  const onPostgres = await startServer(PORT + 1, { ...serverEnv, ...scratchSecrets(), DATABASE_URL: database.url });
  try {
    figures['PostgreSQL'] = await signInThroughput(onPostgres.base, onPostgres.dataDir);
  } finally {
    onPostgres.stop();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await database.drop();
  }

  console.log('');
  console.log(`raw PBKDF2:             ${raw.toFixed(2)} hashes/s`);
  for (const [where, figure] of Object.entries(figures)) {
    const ratio = figure.rate / raw;
    console.log(
      `password sign-in (${where}): ${figure.rate.toFixed(2)}/s (p50 ${figure.p50} ms, p99 ${figure.p99} ms, ${figure.failures} failed); ` +
        `ratio to raw ${ratio.toFixed(3)} (goal >= 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'})`,
    );
  }
  console.log(`passkey sign-in verify: p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms over ${PASSKEY_ROUNDS}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
