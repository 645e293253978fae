/**
 * The peer: better-auth with e-mail and password on Postgres through its documented setup (a `pg`
 * Pool, which it drives with its Kysely adapter), default settings except one: its in-memory rate
 * limiter (on in production: 100 requests per 10 s per address and path) is off for the session read,
 * as our session read has no rate limit either; otherwise the benchmark would measure 429s.
 * Shared by the route (auth.ts) and migrate.ts, which creates the tables with better-auth's own
 * migrations from these options.
 */
import type { BetterAuthOptions } from 'better-auth';
import { Pool } from 'pg';

export function peerOptions(env: Record<string, string | undefined>): BetterAuthOptions {
  return {
    baseURL: env.PEER_BASE_URL,
    secret: env.PEER_AUTH_SECRET,
    database: new Pool({ connectionString: env.PEER_DATABASE_URL }),
    emailAndPassword: { enabled: true },
    rateLimit: { customRules: { '/get-session': false } },
    telemetry: { enabled: false },
  };
}
