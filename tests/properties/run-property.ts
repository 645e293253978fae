/**
 * Bounded, reproducible property runs. One base seed per test run (printed at the start; a random
 * one unless PROPERTY_SEED is set, so CI keeps exploring), and one seed per property derived from it
 * and the property's name, so a failure replays with `PROPERTY_SEED=<seed>` even when only that test
 * is run. PROPERTY_RUNS raises the runs per property for a deeper local search.
 */
import fc from 'fast-check';

export const BASE_SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);
export const RUNS = Number(process.env.PROPERTY_RUNS ?? 3);
const SHRINK_STEPS = 20;

/** FNV-1a over the base seed and the property's name: stable, independent of test order. */
export function seedFor(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${BASE_SEED}:${name}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash | 0;
}

/**
 * Runs `check` on `runs` values of `arbitrary`; `check` throws (with a readable description of the
 * exchange) when a property does not hold. The failure names the smallest failing value fast-check
 * shrank to, and how to replay it.
 */
export async function checkProperty<T>(name: string, arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>, runs = RUNS): Promise<void> {
  const seed = seedFor(name);
  // Shrinking a request costs a request per step (a 43-character token shrinks character by character):
  // after SHRINK_STEPS attempts the smallest failure found so far is reported.
  let failed = false;
  let shrinkSteps = 0;
  const bounded = async (value: T) => {
    if (failed && (shrinkSteps += 1) > SHRINK_STEPS) return;
    try {
      await check(value);
    } catch (error) {
      failed = true;
      throw error;
    }
  };
  const details = await fc.check(fc.asyncProperty(arbitrary, bounded), { numRuns: runs, seed });
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    [
      `${name}: failed after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s)`,
      cause,
      `replay: PROPERTY_SEED=${BASE_SEED} npx vitest run tests/properties (fast-check seed ${seed}, path ${details.counterexamplePath})`,
    ].join('\n'),
  );
}
