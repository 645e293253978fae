import path from 'node:path';
import { defineConfig } from '@playwright/test';
import {
  E2E_BASE_URL as BASE_URL,
  E2E_DNS_PORT as DNS_PORT,
  E2E_PORT as PORT,
  E2E_SERVER_DIR as SERVER_DIR,
  E2E_SMTP_PORT as SMTP_PORT,
} from './e2e/support/ports';

/**
 * E2E journeys against the built app (`next build` runs once before, in scripts/test-all.sh), in the
 * system Chromium: no browser download. With DATABASE_URL set the server runs on that Postgres;
 * otherwise on embedded PGlite in a temporary DATA_DIR.
 */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/support/global-setup.ts',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  webServer: {
    // The server's data and every line it writes stay in test-results/e2e-server, for the secret scan
    // that runs after the suite (scripts/secret-scan.ts).
    command: `rm -rf ${SERVER_DIR} && mkdir -p ${SERVER_DIR} && exec npm start -- -p ${PORT} > ${SERVER_DIR}/server.log 2>&1`,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      BASE_URL,
      PORT: String(PORT),
      DATA_DIR: `${SERVER_DIR}/data`,
      SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123456789',
      PASSWORD_PEPPER: 'e2e-password-pepper-0123456789abcdef012345678',
      DATA_ENCRYPTION_KEY: 'ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100',
      PASSWORD_PBKDF2_ITERATIONS: '1000',
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      MAIL_FROM: 'Identity Service <id@localhost>',
      // Journeys sign in many times from one browser: raise every bucket, never switch limits off.
      RATE_LIMIT_SCALE: '3',
      // The federation journey proves domains against its own DNS server on loopback.
      DNS_SERVERS: `127.0.0.1:${DNS_PORT}`,
      // Webhook journeys deliver to an HTTPS receiver on loopback with the test-only certificate, and
      // the federation journey's company identity provider serves with the same one.
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      OUTBOUND_CA_FILE: path.resolve(__dirname, 'tests/fixtures/tls/localhost-test.crt'),
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
  },
});
