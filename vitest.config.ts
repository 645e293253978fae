import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(__dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'tests/**/*.test.ts'],
    // The built service's own tests run after the build (vitest.system.config.ts).
    exclude: ['tests/system/**', '**/node_modules/**'],
    environment: 'node',
    globalSetup: ['tests/setup/global-database.ts'],
    setupFiles: ['tests/setup/per-file.ts'],
    // Two cores: two workers, each test file on its own database.
    pool: 'forks',
    maxWorkers: 2,
    // Generous: the first test of a file also pays for a database and, in OIDC tests, RSA key generation.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
