/**
 * The operator contract (ARCHITECTURE.md, "Operator contract"). This is the only module that reads
 * process.env; everything else asks getConfig(). Parsing is lazy so `next build` never needs secrets.
 */
import { resolveEmbeddedSecrets } from './embedded-secrets';
import { envSchema, type RawEnv } from './schema';

export type Config = ReturnType<typeof buildConfig>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_PBKDF2_ITERATIONS = 600_000;

/** The service's own name, as people see it in mail, passkey prompts and the password rules. */
export const SERVICE_NAME = 'Identity Service';

/** Host names of the loopback interface, spelled as the URL parser gives them. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for a host name that can only mean this machine: localhost, 127.0.0.1 or [::1] (URL.hostname form). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * Local development is the out-of-the-box run on a developer's machine: the embedded database at a
 * loopback BASE_URL (the default http://localhost:PORT). LOCAL_DEVELOPMENT=false switches it off
 * there; =true switches it on for an embedded run at another address (a phone on the LAN), and is
 * refused with DATABASE_URL (schema.ts). docs/decisions.md, "Local development".
 */
function isLocalDevelopment(env: RawEnv, embedded: boolean, baseUrl: URL): boolean {
  if (!embedded) return false;
  if (env.LOCAL_DEVELOPMENT !== undefined) return env.LOCAL_DEVELOPMENT === 'true' || env.LOCAL_DEVELOPMENT === '1';
  return isLoopbackHost(baseUrl.hostname);
}

function buildConfig(env: RawEnv, secrets: { sessionSecret: string; passwordPepper: string; dataEncryptionKey: Buffer; generated: boolean }) {
  const port = env.PORT;
  const baseUrl = new URL(env.BASE_URL ?? `http://localhost:${port}`);
  const embedded = env.DATABASE_URL === undefined || env.DATABASE_URL.startsWith('memory:');
  return {
    port,
    baseUrl: baseUrl.origin,
    /** The exact Origin every unsafe browser operation must send. */
    origin: baseUrl.origin,
    rpId: baseUrl.hostname,
    secureCookies: baseUrl.protocol === 'https:',
    database: embedded
      ? ({ kind: 'embedded', dir: env.DATABASE_URL?.startsWith('memory:') ? null : `${env.DATA_DIR}/pglite` } as const)
      : ({ kind: 'postgres', url: env.DATABASE_URL! } as const),
    dataDir: env.DATA_DIR,
    /** Secrets were generated into DATA_DIR rather than provided by the operator. */
    secretsGenerated: secrets.generated,
    sessionSecret: secrets.sessionSecret,
    passwordPepper: secrets.passwordPepper,
    dataEncryptionKey: secrets.dataEncryptionKey,
    mail: {
      smtpUrl: env.SMTP_URL ?? null,
      from: env.MAIL_FROM ?? `${SERVICE_NAME} <no-reply@${baseUrl.hostname}>`,
      devMailboxDir: `${env.DATA_DIR}/mailbox`,
    },
    help: env.HELP_PROVIDER_URL
      ? {
          url: env.HELP_PROVIDER_URL,
          apiKey: env.HELP_PROVIDER_API_KEY ?? null,
          model: env.HELP_PROVIDER_MODEL ?? 'default',
          timeoutMs: env.HELP_PROVIDER_TIMEOUT_MS,
        }
      : null,
    outboundAllowPrivateNetworks: env.OUTBOUND_ALLOW_PRIVATE_NETWORKS,
    /** Loopback webhook receivers and /dev/mail (see isLocalDevelopment); never with PostgreSQL. */
    localDevelopment: isLocalDevelopment(env, embedded, baseUrl),
    dnsServers: env.DNS_SERVERS,
    outboundCaFile: env.OUTBOUND_CA_FILE ?? null,
    webhookWorker: { enabled: env.WEBHOOK_WORKER_ENABLED, intervalMs: env.WEBHOOK_WORKER_INTERVAL_MS, batch: env.WEBHOOK_WORKER_BATCH },
    passwordIterations: env.PASSWORD_PBKDF2_ITERATIONS,
    oauthEnabled: env.OAUTH_ENABLED,
    federationEnabled: env.FEDERATION_ENABLED,
    samlEnabled: env.SAML_ENABLED,
    launchApprovedBy: env.LAUNCH_APPROVED_BY ?? null,
    rateLimitScale: env.RATE_LIMIT_SCALE,
    trustedProxyHops: env.TRUSTED_PROXY_HOPS,
    benchBareRoute: env.BENCH_BARE_ROUTE,
    sessionsPerAccount: env.SESSIONS_PER_ACCOUNT,
    ttl: {
      sessionIdle: env.SESSION_IDLE_TTL_SECONDS,
      sessionAbsolute: env.SESSION_ABSOLUTE_TTL_SECONDS,
      stepUp: env.STEP_UP_TTL_SECONDS,
      accessToken: env.ACCESS_TOKEN_TTL_SECONDS,
      refreshToken: env.REFRESH_TOKEN_TTL_SECONDS,
      authorizationCode: env.AUTHORIZATION_CODE_TTL_SECONDS,
      verificationCode: env.VERIFICATION_CODE_TTL_SECONDS,
      enrollmentToken: env.ENROLLMENT_TOKEN_TTL_SECONDS,
      recoveryToken: env.RECOVERY_TOKEN_TTL_SECONDS,
      webauthnChallenge: env.WEBAUTHN_CHALLENGE_TTL_SECONDS,
      federationTransaction: env.FEDERATION_TRANSACTION_TTL_SECONDS,
      invitation: env.INVITATION_TTL_SECONDS,
      idempotencyRecord: env.IDEMPOTENCY_TTL_SECONDS,
      statusEvidence: env.STATUS_EVIDENCE_TTL_SECONDS,
    },
    release: env.RELEASE,
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN ?? null,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    databaseConnectTimeoutSeconds: env.DATABASE_CONNECT_TIMEOUT_SECONDS,
  };
}

/** Parses an environment into a Config. Throws ConfigError with every problem found. */
export function loadConfig(source: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const env = parsed.data;
  const secrets = resolveEmbeddedSecrets(env);
  return buildConfig(env, secrets);
}

const holder = globalThis as unknown as { __identityConfig?: Config };

export function getConfig(): Config {
  holder.__identityConfig ??= loadConfig(process.env);
  return holder.__identityConfig;
}

/** Test seam: forget the memoised config so the next getConfig() reads the environment again. */
export function resetConfig(): void {
  holder.__identityConfig = undefined;
}
