import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * System tests: the built service as its own process, under faults (a database stopped and started,
 * a signal while a request is in flight). They run after `next build` (scripts/test-all.sh), one file
 * at a time: each starts servers of its own and must not compete with another for two cores.
 */
export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    include: ['tests/system/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
