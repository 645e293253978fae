/**
 * Bounded, reproducible property runs. Gating and discovery are kept apart: the suite `npm test` runs
 * always uses the same base seed (FIXED_SEED), so it fails only on what a change did, never on a
 * defect a new random draw happened to find; `npm run test:properties:search`
 * (scripts/search-properties.sh) draws random base seeds with more runs and prints the seeds that
 * failed, which become fixes plus named regression cases (regressions.ts). One seed per property is
 * derived from the base seed and the property's name, so a failure replays with
 * `PROPERTY_SEED=<seed>` even when only that test is run. PROPERTY_RUNS sets the runs per property.
 */
import fc from 'fast-check';

/** The gating base seed: any number would do; changing it is a change to review like any other. */
export const FIXED_SEED = 20_261_118;
export const BASE_SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : FIXED_SEED;
export const RUNS = Number(process.env.PROPERTY_RUNS ?? 3);
const SHRINK_STEPS = 20;

/** FNV-1a over the base seed and the property's name: stable, independent of test order. */
export function seedFor(name: string, baseSeed = BASE_SEED): number {
  let hash = 0x811c9dc5;
  for (const char of `${baseSeed}:${name}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash | 0;
}

/**
 * Runs `check` on `runs` values of `arbitrary`; `check` throws (with a readable description of the
 * exchange) when a property does not hold. The failure names the smallest failing value fast-check
 * shrank to, and how to replay it.
 */
export async function checkProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<void>,
  { runs = RUNS, baseSeed = BASE_SEED }: { runs?: number; baseSeed?: number } = {},
): Promise<void> {
  const seed = seedFor(name, baseSeed);
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
      `replay: PROPERTY_SEED=${baseSeed} npx vitest run tests/properties (fast-check seed ${seed}, path ${details.counterexamplePath})`,
    ].join('\n'),
  );
}
