/**
 * Tables of short-lived rows (rate-limit windows, idempotency records, OIDC artefacts) clean
 * themselves: roughly one write in a hundred also deletes what has expired, so no scheduler is needed
 * and the cost is spread over normal traffic.
 */
const SWEEP_PROBABILITY = 0.01;

export function shouldSweep(): boolean {
  return Math.random() < SWEEP_PROBABILITY;
}
