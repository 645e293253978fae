/**
 * The database server stops for 12 s under a request loop and comes back, while the same service
 * process keeps running (its own PostgreSQL cluster, stopped with pg_ctl). Every request that needs
 * the database answers 503 `service_unavailable` with X-Request-ID within a bound, never hangs and
 * never another 5xx; readiness says not ready; after the restart the same process serves again
 * within seconds; and every sign-up in flight either completed or left nothing.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '@/tests/helpers/smtp-sink';
import { operatorSecrets, startBuiltServer, type BuiltServer } from './support/built-server';
import { createPostgresCluster, type PostgresCluster } from './support/postgres-cluster';

const OUTAGE_MS = 12_000;
/** No request may take longer than this, outage or not (a new connection gives up after 5 s). */
const ANSWER_BOUND_MS = 8_000;
const RECOVERY_BOUND_MS = 15_000;
const METRICS_TOKEN = 'system-test-metrics-token-0123456789';

interface Outcome {
  kind: 'signin' | 'enrollment' | 'health';
  email?: string;
  status: number;
  code: string | null;
  requestId: string | null;
  ms: number;
  during: boolean;
}

let cluster: PostgresCluster;
let server: BuiltServer;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  cluster = await createPostgresCluster();
  sink = await startSmtpSink();
  server = await startBuiltServer({
    ...operatorSecrets(),
    DATABASE_URL: cluster.url,
    SMTP_URL: sink.url,
    MAIL_FROM: 'Identity <id@localhost>',
    PASSWORD_PBKDF2_ITERATIONS: '1000',
    STATUS_EVIDENCE_TTL_SECONDS: '1',
    // The loop is one client: limits stay on, scaled past what the loop spends.
    RATE_LIMIT_SCALE: '1000',
    METRICS_TOKEN: METRICS_TOKEN,
  });
});

afterAll(async () => {
  await server?.stop();
  await sink?.close();
  cluster?.destroy();
});

let outage = false;

async function call(kind: Outcome['kind'], n: number): Promise<Outcome> {
  const email = kind === 'enrollment' ? `loop-${n}@example.test` : undefined;
  const started = Date.now();
  const during = outage;
  const init: RequestInit =
    kind === 'health'
      ? {}
      : {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: server.base },
          body: JSON.stringify(kind === 'signin' ? { email: 'nobody@example.test', password: 'not the password' } : { email }),
          signal: AbortSignal.timeout(30_000),
        };
  const path = { health: '/api/health', signin: '/api/auth/signin/password', enrollment: '/api/auth/enrollment/start' }[kind];
  const response = await fetch(`${server.base}${path}`, init);
  const body = (await response.json()) as { code?: string };
  return {
    kind,
    email,
    status: response.status,
    code: body.code ?? null,
    requestId: response.headers.get('x-request-id'),
    ms: Date.now() - started,
    during: during || outage,
  };
}

async function loop(until: () => boolean, outcomes: Outcome[]): Promise<void> {
  let n = 0;
  while (!until()) {
    n += 1;
    const kinds: Outcome['kind'][] = ['signin', 'enrollment', 'health'];
    outcomes.push(...(await Promise.all(kinds.map((kind) => call(kind, n * 10 + Math.floor(Math.random() * 10))))));
  }
}

async function readiness(): Promise<number> {
  return (await fetch(`${server.base}/readyz`)).status;
}

async function eventually(check: () => Promise<boolean>, boundMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < boundMs) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`not within ${boundMs} ms`);
}

describe('the database stops and comes back', () => {
  it('answers 503 within a bound, reports not ready, recovers in the same process, leaves nothing half-written', async () => {
    expect(await readiness()).toBe(200);
    const outcomes: Outcome[] = [];
    let done = false;
    const running = loop(() => done, outcomes);

    await new Promise((resolve) => setTimeout(resolve, 1_500));
    cluster.stop();
    outage = true;
    const notReadyAfter = await eventually(async () => (await readiness()) === 503, 5_000);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - notReadyAfter));
    cluster.start();
    outage = false;
    const servingAfter = await eventually(async () => {
      const [signin, enrollment] = await Promise.all([call('signin', -1), call('enrollment', Date.now())]);
      outcomes.push(signin, enrollment);
      return signin.status === 401 && enrollment.status === 202;
    }, RECOVERY_BOUND_MS);
    await eventually(async () => (await readiness()) === 200, RECOVERY_BOUND_MS);
    done = true;
    await running;

    // The same process served throughout: it never exited.
    expect(await Promise.race([server.exited.then(() => 'exited'), Promise.resolve('running')])).toBe('running');
    console.info(`outage: ${outcomes.length} requests, not ready after ${notReadyAfter} ms, serving again ${servingAfter} ms after the restart`);

    const refused = outcomes.filter((o) => o.status === 503);
    // The outage was real: requests that need the database were refused during it ...
    expect(refused.length).toBeGreaterThan(0);
    for (const o of outcomes) {
      // ... every answer came within the bound, with a request id ...
      expect(o.ms, `${o.kind} took ${o.ms} ms`).toBeLessThan(ANSWER_BOUND_MS);
      expect(o.requestId).toMatch(/\S{8,}/);
      // ... and was its normal answer or 503 service_unavailable: no other 5xx, no other refusal.
      const normal = { signin: 401, enrollment: 202, health: 200 }[o.kind];
      expect([normal, 503], `${o.kind} answered ${o.status} ${o.code}`).toContain(o.status);
      if (o.status === 503) expect(o.code).toBe('service_unavailable');
    }
    // The health answer needs no database: it never failed.
    expect(outcomes.filter((o) => o.kind === 'health').every((o) => o.status === 200)).toBe(true);

    // The scrape of this process (whatever bundle served each request) saw the refusals, by operation.
    const scrape = await (await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const refusedSignIns = /^identity_http_requests_total\{operation="signInWithPassword",status_class="5xx"\} (\d+)$/m.exec(scrape);
    expect(Number(refusedSignIns?.[1])).toBe(refused.filter((o) => o.kind === 'signin').length);
    expect(scrape).toMatch(/^identity_ready 1$/m);

    // Nothing half-written: a sign-up that answered 202 has its one enrollment, one that answered 503 left none.
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<
        { email: string; n: number }[]
      >`select email, count(*)::int as n from email_challenges where purpose = 'enrollment' group by email`;
      const kept = new Map(rows.map((r) => [r.email, r.n]));
      const signUps = outcomes.filter((o) => o.kind === 'enrollment');
      expect(signUps.some((o) => o.status === 503)).toBe(true);
      for (const o of signUps) expect(kept.get(o.email!) ?? 0, `${o.email} answered ${o.status}`).toBe(o.status === 202 ? 1 : 0);
    } finally {
      await sql.end();
    }
  });
});
