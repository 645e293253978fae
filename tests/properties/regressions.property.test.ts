/**
 * Every seed that once found a defect, replayed on each run of the suite as a named case (the list is
 * in regressions.ts): the gating walk uses one fixed seed, so what a random search found must stay
 * found here.
 */
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '@/lib/http/registry';
import { REGRESSIONS } from './regressions';
import { runCase, useWalk } from './walk';

const walk = useWalk();

describe('seeds that once found a defect, replayed', () => {
  it.each(REGRESSIONS.map((r) => [r.name, r] as const))('%s', async (_name, regression) => {
    const op = OPERATIONS.find((o) => o.id === regression.operationId);
    expect(op, regression.operationId).toBeDefined();
    expect(await runCase(walk, op!, regression.badInput, regression.mode, { baseSeed: regression.seed, runs: regression.runs })).toBeNull();
  });
});
