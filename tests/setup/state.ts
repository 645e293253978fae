import { resetConfig } from '@/lib/config';
import { closeDb } from '@/lib/db';
import { resetMailer } from '@/lib/mail';
import { forgetEvidence } from '@/lib/status/evidence';

/** Secrets and settings every test file starts from (fixed values: tests are reproducible). */
export const TEST_ENV: Record<string, string> = {
  BASE_URL: 'http://localhost:3000',
  SESSION_SECRET: 'test-session-secret-0123456789abcdef0123456789',
  PASSWORD_PEPPER: 'test-password-pepper-0123456789abcdef012345678',
  DATA_ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
  PASSWORD_PBKDF2_ITERATIONS: '1000',
  RATE_LIMIT_SCALE: '1',
  STATUS_EVIDENCE_TTL_SECONDS: '1',
  // Security events (warn) on every refusal would bury the test output; their tests raise the level.
  LOG_LEVEL: 'error',
  // The suite runs every guard as production does, on PGlite as on PostgreSQL; the local-development
  // conveniences (loopback webhooks, /dev/mail) are tested by switching them on where they are tested.
  LOCAL_DEVELOPMENT: 'false',
};

/**
 * Process-wide singletons (config, database handle, mailer, evidence cache) live on globalThis so
 * `next dev` shares them across bundles; tests that change the environment must forget them.
 */
export function resetProcessState(options: { closeDatabase: true }): Promise<void>;
export function resetProcessState(): void;
export function resetProcessState(options?: { closeDatabase: true }): void | Promise<void> {
  resetConfig();
  resetMailer();
  forgetEvidence();
  if (options?.closeDatabase) return closeDb();
}

/** Applies environment overrides for one test and resets the singletons that read them. */
export function withEnv(overrides: Record<string, string | undefined>): () => void {
  const previous: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(overrides)) {
    previous[key] = process.env[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfig();
  resetMailer();
  forgetEvidence();
  return () => {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetConfig();
    resetMailer();
    forgetEvidence();
  };
}
