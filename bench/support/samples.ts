/** One measured autocannon run, and the medians over interleaved rounds that every benchmark prints. */
import type autocannon from 'autocannon';

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Medians of the rounds; errors are summed (any error makes the figures meaningless). */
export const summarise = (samples: Sample[]): Sample => ({
  rps: median(samples.map((s) => s.rps)),
  p50: median(samples.map((s) => s.p50)),
  p99: median(samples.map((s) => s.p99)),
  errors: samples.reduce((n, s) => n + s.errors, 0),
});

export function toSample(result: autocannon.Result): Sample {
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}
