/**
 * How long judging a hostile agent action input schema takes (not part of CI): each schema of
 * tests/fixtures/pathological-schemas.ts (the ones the attack test expects refused or accepted) goes
 * through `inputSchemaProblem`, the whole judgement a registration pays for (size, patterns, a strict
 * Ajv 2020-12 compile), in-process, without the database. Prints the median, p99 and maximum per
 * schema: a pathological schema must cost about what a legitimate one does, not seconds (a request
 * used to be allowed up to 3 s before this was a benchmark).
 *
 *   npx tsx bench/agent-action-schemas.ts   (BENCH_ITERATIONS)
 */
import { inputSchemaProblem } from '../lib/organizations/agent-actions/agent-actions';
import { PATHOLOGICAL_SCHEMAS } from '../tests/fixtures/pathological-schemas';
import { percentile } from './support/server';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 50);

function timeOnce(schema: Record<string, unknown>): { ms: number; refused: boolean } {
  const start = process.hrtime.bigint();
  const problem = inputSchemaProblem(schema);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, refused: problem !== null };
}

function main() {
  const rows: Record<string, { expected: string; judged: string; p50_ms: string; p99_ms: string; max_ms: string }> = {};
  for (const { name, schema, status } of PATHOLOGICAL_SCHEMAS) {
    timeOnce(schema); // warm-up (JIT, Ajv's own code)
    const samples = Array.from({ length: ITERATIONS }, () => timeOnce(schema));
    const times = samples.map((s) => s.ms).sort((a, b) => a - b);
    rows[name] = {
      expected: status === 400 ? 'refused' : 'accepted',
      judged: samples[0]!.refused ? 'refused' : 'accepted',
      p50_ms: percentile(times, 50).toFixed(2),
      p99_ms: percentile(times, 99).toFixed(2),
      max_ms: times.at(-1)!.toFixed(2),
    };
  }
  console.log(`inputSchemaProblem per hostile input schema, ${ITERATIONS} iterations each`);
  console.table(rows);
}

main();
