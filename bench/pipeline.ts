/**
 * Pipeline overhead benchmark (not part of CI): GET /api/v1/capabilities through the full pipeline
 * against a bare route handler returning the same JSON, side by side on one built server, in
 * alternating rounds so both see the same machine state. Prints p50/p99/throughput and the ratios.
 *
 *   npm run build && npm run bench            (options: BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS)
 */
import autocannon from 'autocannon';
import { startServer } from './support/server';

const PORT = 3300;
const BASE = `http://localhost:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Sample {
  mean: number;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

async function run(urlPath: string, seconds: number): Promise<Sample> {
  const result = await autocannon({ url: `${BASE}${urlPath}`, connections: CONNECTIONS, duration: seconds });
  return { mean: result.latency.mean, p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, errors: result.errors + result.non2xx };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const summarise = (samples: Sample[]): Sample => ({
  mean: median(samples.map((s) => s.mean)),
  p50: median(samples.map((s) => s.p50)),
  p99: median(samples.map((s) => s.p99)),
  rps: median(samples.map((s) => s.rps)),
  errors: samples.reduce((n, s) => n + s.errors, 0),
});

async function main() {
  const server = await startServer(PORT, { BENCH_BARE_ROUTE: 'true' });
  try {
    const targets = { pipeline: '/api/v1/capabilities', bare: '/api/bench/bare' };
    const [a, b] = await Promise.all([fetch(`${BASE}${targets.pipeline}`).then((r) => r.json()), fetch(`${BASE}${targets.bare}`).then((r) => r.json())]);
    if (JSON.stringify(a.capabilities) !== JSON.stringify(b.capabilities)) throw new Error('the bare route does not return the same JSON');
    // Warm both paths (JIT, caches) before measuring.
    await run(targets.pipeline, 3);
    await run(targets.bare, 3);
    const samples: Record<keyof typeof targets, Sample[]> = { pipeline: [], bare: [] };
    for (let round = 0; round < ROUNDS; round++) {
      samples.bare.push(await run(targets.bare, SECONDS));
      samples.pipeline.push(await run(targets.pipeline, SECONDS));
    }
    const pipeline = summarise(samples.pipeline);
    const bare = summarise(samples.bare);
    console.log(`GET /api/v1/capabilities, ${CONNECTIONS} connections, ${ROUNDS} x ${SECONDS}s rounds (medians)`);
    console.table({ bare, pipeline });
    console.log(
      `p50 ratio pipeline/bare: ${(pipeline.p50 / bare.p50).toFixed(3)} (pipeline adds ${(((pipeline.p50 - bare.p50) / bare.p50) * 100).toFixed(1)}% to p50)`,
    );
    console.log(`mean latency ratio pipeline/bare: ${(pipeline.mean / bare.mean).toFixed(3)}`);
    console.log(`p99 ratio pipeline/bare: ${(pipeline.p99 / bare.p99).toFixed(3)}`);
    console.log(`throughput ratio pipeline/bare: ${(pipeline.rps / bare.rps).toFixed(3)}`);
  } finally {
    server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
