/**
 * Session read benchmark (not part of CI): our `GET /api/auth/session` against the peer most Next.js
 * teams would pick instead, better-auth's `GET /api/auth/get-session` in a Next route handler
 * (bench/peer-better-auth, on a `pg` Pool as its docs set it up), both production builds on the same Postgres (a scratch database each).
 * One user per system signs in once; then each session read, with its own cookie, runs in
 * interleaved rounds of the same length and connection count. Prints requests/s per round, the
 * medians, their ratio and whether the goal (ours at least 1.2x the peer) is met.
 *
 *   npm run build && npx tsx bench/session-read.ts
 *   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_PG_URL, BENCH_DB_PREFIX)
 *
 * Both answers are checked (ours 200 with the user, the peer's 200 with a non-null session) before
 * and after measuring, since better-auth answers an unknown cookie with 200 `null`; any non-2xx
 * answer or timeout fails the run (exit code 1).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { api, enroll } from './support/accounts';
import { startServer } from './support/server';
import { median, summarise, toSample, type Sample } from './support/samples';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const DB_PREFIX = process.env.BENCH_DB_PREFIX ?? 'bench_session';
const GOAL = 1.2;
const OURS = { port: 3500, path: '/api/auth/session' };
const ROOT = path.join(__dirname, '..');
const PEER = { port: 3501, path: '/api/auth/get-session', dir: path.join(__dirname, 'peer-better-auth') };
const PEER_BASE = `http://localhost:${PEER.port}`;
const EMAIL = 'reader@example.test';
const PASSWORD = 'quiet lanterns drift over the harbour';

async function measure(url: string, cookie: string, seconds: number): Promise<Sample> {
  return toSample(await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { cookie } }));
}

/** The `name=value` pair of the named cookie a response sets. */
function cookieFrom(response: Response, name: string): string {
  const pair = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((p) => p.startsWith(`${name}=`));
  if (!pair) throw new Error(`no ${name} cookie in the answer (${response.status})`);
  return pair;
}

/** Runs a tool of the repository's node_modules in the peer's folder (the peer has no node_modules of its own). */
function peerTool(tool: string, args: string[], env: Record<string, string>) {
  const result = spawnSync(path.join(ROOT, 'node_modules/.bin', tool), args, { cwd: PEER.dir, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed in the peer:\n${result.stdout}\n${result.stderr}`);
}

async function startPeer(env: Record<string, string>): Promise<() => void> {
  // better-auth's tables, by its own migrations (what its CLI's `migrate` runs).
  peerTool('tsx', ['migrate.ts'], env);
  // webpack: a Turbopack build of an app nested in this repository picks up the repository's own instrumentation.ts.
  peerTool('next', ['build', '--webpack'], env);
  const child = spawn(path.join(ROOT, 'node_modules/.bin/next'), ['start', '-p', String(PEER.port)], {
    cwd: PEER.dir,
    env: { ...process.env, ...env },
    stdio: 'ignore',
    detached: true,
  });
  const stop = () => process.kill(-child.pid!, 'SIGTERM');
  for (let i = 0; i < 120; i++) {
    try {
      await fetch(`${PEER_BASE}${PEER.path}`);
      return stop;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  stop();
  throw new Error('the peer did not start');
}

async function ourCookie(base: string, dataDir: string): Promise<string> {
  await enroll(base, dataDir, EMAIL, (token) => api(base, '/api/auth/enrollment/password/complete', { password: PASSWORD }, token));
  const signIn = await fetch(`${base}/api/auth/signin/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (signIn.status !== 201) throw new Error(`our sign-in: ${signIn.status} ${await signIn.text()}`);
  return cookieFrom(signIn, 'session');
}

async function peerCookie(): Promise<string> {
  const post = (route: string, body: unknown) =>
    fetch(`${PEER_BASE}/api/auth/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: PEER_BASE }, body: JSON.stringify(body) });
  const signUp = await post('sign-up/email', { name: 'Bench', email: EMAIL, password: PASSWORD });
  if (!signUp.ok) throw new Error(`peer sign-up: ${signUp.status} ${await signUp.text()}`);
  const signIn = await post('sign-in/email', { email: EMAIL, password: PASSWORD });
  if (!signIn.ok) throw new Error(`peer sign-in: ${signIn.status} ${await signIn.text()}`);
  return cookieFrom(signIn, 'better-auth.session_token');
}

/** Both reads answer the signed-in user (better-auth answers 200 `null` for a session it does not find). */
async function checkAnswers(ours: string, oursCookie: string, peer: string, peerCookieValue: string) {
  const a = await fetch(ours, { headers: { cookie: oursCookie } });
  const aBody = (await a.json()) as { user?: { email?: string } };
  if (a.status !== 200 || aBody.user?.email !== EMAIL) throw new Error(`our session read: ${a.status} ${JSON.stringify(aBody)}`);
  const b = await fetch(peer, { headers: { cookie: peerCookieValue } });
  const bBody = (await b.json()) as { user?: { email?: string } } | null;
  if (b.status !== 200 || bBody?.user?.email !== EMAIL) throw new Error(`peer session read: ${b.status} ${JSON.stringify(bBody)}`);
}

async function main() {
  const stamp = Date.now();
  const databases = { ours: `${DB_PREFIX}_ours_${stamp}`, peer: `${DB_PREFIX}_peer_${stamp}` };
  const admin = postgres(`${PG_URL}/postgres`, { max: 1, onnotice: () => {} });
  for (const name of Object.values(databases)) await admin.unsafe(`create database ${name}`);
  const stops: (() => void)[] = [];
  try {
    const peerEnv = {
      PEER_DATABASE_URL: `${PG_URL}/${databases.peer}`,
      PEER_BASE_URL: PEER_BASE,
      PEER_AUTH_SECRET: randomBytes(32).toString('base64'),
      NEXT_TELEMETRY_DISABLED: '1',
    };
    const ours = await startServer(OURS.port, {
      DATABASE_URL: `${PG_URL}/${databases.ours}`,
      SESSION_SECRET: randomBytes(32).toString('base64'),
      PASSWORD_PEPPER: randomBytes(32).toString('base64'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    stops.push(ours.stop);
    stops.push(await startPeer(peerEnv));

    const targets = {
      ours: { url: `${ours.base}${OURS.path}`, cookie: await ourCookie(ours.base, ours.dataDir) },
      peer: { url: `${PEER_BASE}${PEER.path}`, cookie: await peerCookie() },
    };
    await checkAnswers(targets.ours.url, targets.ours.cookie, targets.peer.url, targets.peer.cookie);

    // Warm both (JIT, connection pools) before measuring.
    await measure(targets.ours.url, targets.ours.cookie, 3);
    await measure(targets.peer.url, targets.peer.cookie, 3);
    const samples = { ours: [] as Sample[], peer: [] as Sample[] };
    for (let round = 0; round < ROUNDS; round++) {
      samples.peer.push(await measure(targets.peer.url, targets.peer.cookie, SECONDS));
      samples.ours.push(await measure(targets.ours.url, targets.ours.cookie, SECONDS));
      console.log(`round ${round + 1}: ours ${samples.ours[round]!.rps.toFixed(1)} req/s, peer ${samples.peer[round]!.rps.toFixed(1)} req/s`);
    }
    await checkAnswers(targets.ours.url, targets.ours.cookie, targets.peer.url, targets.peer.cookie);

    const summary = (list: Sample[]) => {
      const { rps, p50, p99, errors } = summarise(list);
      return { 'req/s (median)': Math.round(rps * 10) / 10, 'p50 ms (median)': p50, 'p99 ms (median)': p99, errors };
    };
    console.log(`\nsession read, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS}s`);
    console.table({ 'ours GET /api/auth/session': summary(samples.ours), 'better-auth GET /api/auth/get-session': summary(samples.peer) });
    const ratio = median(samples.ours.map((s) => s.rps)) / median(samples.peer.map((s) => s.rps));
    console.log(`ratio of medians ours/peer: ${ratio.toFixed(2)} (goal >= ${GOAL}: ${ratio >= GOAL ? 'met' : 'NOT met'})`);
    const errors = [...samples.ours, ...samples.peer].reduce((n, s) => n + s.errors, 0);
    if (errors > 0) {
      // Errors (non-2xx, timeouts) make the figures meaningless: say so and fail the run.
      console.error(`${errors} errors (expected 0)`);
      process.exitCode = 1;
    }
  } finally {
    for (const stop of stops.reverse()) {
      try {
        stop();
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 1000));
    for (const name of Object.values(databases)) await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(), // with process.exitCode
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
