import { z } from 'zod';

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const secret = optionalText.refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters');

/** 64 hex characters or 44 base64 characters (32 bytes either way). */
export const encryptionKeyPattern = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/;

export const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    BASE_URL: optionalText.refine((v) => {
      if (v === undefined) return true;
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && (u.pathname === '/' || u.pathname === '');
      } catch {
        return false;
      }
    }, 'must be an http(s) origin without a path, e.g. https://id.example.com'),
    DATABASE_URL: optionalText.refine(
      (v) => v === undefined || /^(postgres|postgresql):\/\//.test(v) || v === 'memory:',
      'must be a postgres:// URL (or memory: for an in-memory embedded database)',
    ),
    DATA_DIR: z.string().min(1).default('./.data'),
    SMTP_URL: optionalText.refine((v) => v === undefined || /^smtps?:\/\//.test(v), 'must be an smtp:// or smtps:// URL'),
    MAIL_FROM: optionalText,
    SESSION_SECRET: secret,
    PASSWORD_PEPPER: secret,
    DATA_ENCRYPTION_KEY: optionalText.refine(
      (v) => v === undefined || encryptionKeyPattern.test(v),
      'must be 64 hex characters or 44 base64 characters (32 bytes)',
    ),
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: flag(false),
    /**
     * Conveniences for a developer's own machine (webhooks to loopback receivers, the /dev/mail page).
     * Unset: on for the embedded database at a loopback BASE_URL, off otherwise (lib/config/index.ts).
     */
    LOCAL_DEVELOPMENT: z.enum(['true', 'false', '1', '0']).optional(),
    /** A PEM file of certificate authorities outbound HTTPS trusts besides the system ones (tests: the loopback receiver's). */
    OUTBOUND_CA_FILE: optionalText,
    /** The webhook delivery worker inside the service (lib/webhooks/worker.ts); `npm run worker` runs it separately. */
    WEBHOOK_WORKER_ENABLED: flag(true),
    WEBHOOK_WORKER_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
    /** Deliveries one pass claims (and sends concurrently). */
    WEBHOOK_WORKER_BATCH: z.coerce.number().int().min(1).max(500).default(25),
    DNS_SERVERS: optionalText.transform((v) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    ),
    HELP_PROVIDER_URL: optionalText.refine((v) => v === undefined || /^https?:\/\//.test(v), 'must be an http(s) URL'),
    HELP_PROVIDER_API_KEY: optionalText,
    HELP_PROVIDER_MODEL: optionalText,
    HELP_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    PASSWORD_PBKDF2_ITERATIONS: z.coerce.number().int().min(1_000).max(10_000_000).default(600_000),
    OAUTH_ENABLED: flag(true),
    /** Federated sign-in through organizations' identity providers (discovery, start, callback). */
    FEDERATION_ENABLED: flag(true),
    /** SAML execution, gated on its own (spec): off unless the operator turns it on. */
    SAML_ENABLED: flag(false),
    LAUNCH_APPROVED_BY: optionalText,
    RATE_LIMIT_SCALE: z.coerce.number().positive().max(1_000_000).default(1),
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    BENCH_BARE_ROUTE: flag(false),
    RELEASE: z.string().min(1).max(64).default('dev'),
    /** Bearer token for GET /metrics (Prometheus); unset, /metrics is off (404). */
    METRICS_TOKEN: optionalText.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
    /** How long requests in flight may take to finish after SIGTERM before the process ends anyway. */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
    /** How long a new database connection may take before the request that needs it answers 503. */
    DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
    /** The least severe structured log line written (lib/observability/log.ts); security events are `warn`. */
    LOG_LEVEL: z.enum(['info', 'warn', 'error', 'silent']).default('info'),
    /** Live sessions one account may hold; a sign-in beyond it ends the least recently used one. */
    SESSIONS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(30),
    SESSION_IDLE_TTL_SECONDS: seconds(24 * 3600),
    SESSION_ABSOLUTE_TTL_SECONDS: seconds(7 * 24 * 3600),
    STEP_UP_TTL_SECONDS: seconds(10 * 60),
    ACCESS_TOKEN_TTL_SECONDS: seconds(10 * 60),
    REFRESH_TOKEN_TTL_SECONDS: seconds(30 * 24 * 3600),
    AUTHORIZATION_CODE_TTL_SECONDS: seconds(60),
    VERIFICATION_CODE_TTL_SECONDS: seconds(10 * 60),
    ENROLLMENT_TOKEN_TTL_SECONDS: seconds(30 * 60),
    RECOVERY_TOKEN_TTL_SECONDS: seconds(30 * 60),
    WEBAUTHN_CHALLENGE_TTL_SECONDS: seconds(5 * 60),
    FEDERATION_TRANSACTION_TTL_SECONDS: seconds(10 * 60),
    INVITATION_TTL_SECONDS: seconds(7 * 24 * 3600),
    IDEMPOTENCY_TTL_SECONDS: seconds(24 * 3600),
    STATUS_EVIDENCE_TTL_SECONDS: seconds(5),
  })
  .superRefine((env, ctx) => {
    // A real database means production: secrets must come from the operator, never be invented.
    const production = env.DATABASE_URL !== undefined && env.DATABASE_URL !== 'memory:';
    if (!production) return;
    if (env.LOCAL_DEVELOPMENT === 'true' || env.LOCAL_DEVELOPMENT === '1') {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCAL_DEVELOPMENT'],
        message: 'cannot be on when DATABASE_URL is set (a production deployment keeps every guard)',
      });
    }
    for (const key of ['SESSION_SECRET', 'PASSWORD_PEPPER', 'DATA_ENCRYPTION_KEY'] as const) {
      if (env[key] === undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'is required when DATABASE_URL is set' });
      }
    }
  });

export type RawEnv = z.infer<typeof envSchema>;
