/**
 * Accounts benchmark (not part of CI), in one run on one machine:
 *  1. raw PBKDF2-HMAC-SHA256 throughput at the production work factor, all cores busy;
 *  2. password sign-in throughput at saturation through the full app (pipeline, rate limits, lockout
 *     bookkeeping, session issue), with RATE_LIMIT_SCALE raised (limits stay on);
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
import { percentile, startServer } from './support/server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const PASSKEY_ROUNDS = Number(process.env.BENCH_PASSKEY_ROUNDS ?? 300);
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

async function main() {
  console.log(`raw PBKDF2 (${ITERATIONS} iterations, ${availableParallelism()} parallel) for ${SECONDS}s ...`);
  const raw = await rawPbkdf2PerSecond();

  const server = await startServer(PORT, { RATE_LIMIT_SCALE: '100000', PASSWORD_PBKDF2_ITERATIONS: String(ITERATIONS) });
  try {
    const { base, dataDir } = server;
    await enroll(base, dataDir, 'bench@example.test', (token) => api(base, '/api/auth/enrollment/password/complete', { password: PASSWORD }, token));
    const authenticator = new SoftAuthenticator(base);
    await enroll(base, dataDir, 'passkey@example.test', async (token) => {
      const { options, challenge_id } = await api(base, '/api/auth/enrollment/passkey/options', {}, token);
      await api(base, '/api/auth/enrollment/passkey/complete', { challenge_id, credential: authenticator.create(options) }, token);
    });

    console.log(`password sign-in through the app, ${CONNECTIONS} connections for ${SECONDS}s ...`);
    const signIn = await autocannon({
      url: `${base}/api/auth/signin/password`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'bench@example.test', password: PASSWORD }),
    });
    const failures = signIn.non2xx + signIn.errors;
    const signInRate = (signIn.requests.total - failures) / SECONDS;

    console.log(`passkey sign-in, ${PASSKEY_ROUNDS} sequential ceremonies ...`);
    const latencies: number[] = [];
    for (let i = 0; i < PASSKEY_ROUNDS; i++) {
      const { options, challenge_id } = await api(base, '/api/auth/signin/passkey/options', {});
      const credential = authenticator.get(options);
      const started = performance.now();
      await api(base, '/api/auth/signin/passkey/complete', { challenge_id, credential });
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);

    console.log('');
    console.log(`raw PBKDF2:             ${raw.toFixed(2)} hashes/s`);
    console.log(`password sign-in:       ${signInRate.toFixed(2)} sign-ins/s (p50 ${signIn.latency.p50} ms, p99 ${signIn.latency.p99} ms, ${failures} failed)`);
    console.log(`ratio sign-in / raw:    ${(signInRate / raw).toFixed(3)} (target >= 0.85)`);
    console.log(
      `passkey sign-in verify: p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms over ${PASSKEY_ROUNDS}`,
    );
  } finally {
    server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
