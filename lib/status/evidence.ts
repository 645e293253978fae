/**
 * Live evidence behind every status answer. Collected at most once per STATUS_EVIDENCE_TTL_SECONDS
 * (single flight), so anonymous callers cannot turn status endpoints into load on the database or
 * the mail server. Evidence holds classifications only: no secrets, hosts, or provider bodies.
 */
import { DEFAULT_PBKDF2_ITERATIONS, getConfig } from '@/lib/config';
import { getDb, getDbDriver } from '@/lib/db';
import { checkMailTransport, type MailTransportState } from '@/lib/mail';
import { within } from '@/lib/platform';
import { shippedMigrationHashes } from './migrations';
import { appliedMigrationHashes, pingDatabase } from './status.repo';

export type CheckState = 'pass' | 'degraded' | 'fail';

export interface Evidence {
  checkedAt: Date;
  database: { state: CheckState; driver: 'postgres' | 'pglite' | null; latencyMs: number | null };
  migrations: { state: CheckState; shipped: number; applied: number | null; latest: string | null };
  keys: { state: CheckState; generated: boolean };
  mail: { state: CheckState; transport: MailTransportState | 'unknown' };
  passwordHashing: { state: CheckState; iterations: number };
  helpProvider: { configured: boolean };
  oauthEnabled: boolean;
  federation: { enabled: boolean; samlEnabled: boolean };
}

/** A check that has not answered by then has failed: readiness must answer a load balancer promptly. */
const CHECK_BOUND_MS = 2_000;

async function collect(): Promise<Evidence> {
  const config = getConfig();
  const checkedAt = new Date();
  const shipped = shippedMigrationHashes();
  let database: Evidence['database'] = { state: 'fail', driver: null, latencyMs: null };
  let migrations: Evidence['migrations'] = { state: 'fail', shipped: shipped.length, applied: null, latest: shipped.at(-1)?.tag ?? null };
  try {
    // Built apart and taken whole: a check that answers after its bound changes nothing already reported.
    ({ database, migrations } = await within(CHECK_BOUND_MS, async () => {
      const started = performance.now();
      const db = await getDb();
      await pingDatabase(db);
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      const applied = new Set(await appliedMigrationHashes(db));
      return {
        database: { state: 'pass' as const, driver: await getDbDriver(), latencyMs },
        migrations: { ...migrations, applied: applied.size, state: shipped.every((m) => applied.has(m.hash)) ? ('pass' as const) : ('fail' as const) },
      };
    }));
  } catch {
    // Classified as fail above; the error itself (hosts, credentials) is never reported.
  }
  let transport: MailTransportState | 'unknown' = 'unknown';
  try {
    transport = await within(CHECK_BOUND_MS, checkMailTransport);
  } catch {
    transport = 'smtp_failed';
  }
  return {
    checkedAt,
    database,
    migrations,
    keys: {
      state: config.dataEncryptionKey.length === 32 ? (config.secretsGenerated ? 'degraded' : 'pass') : 'fail',
      generated: config.secretsGenerated,
    },
    mail: { state: transport === 'smtp_ready' ? 'pass' : transport === 'dev_mailbox' ? 'degraded' : 'fail', transport },
    passwordHashing: {
      state: config.passwordIterations >= DEFAULT_PBKDF2_ITERATIONS ? 'pass' : 'degraded',
      iterations: config.passwordIterations,
    },
    helpProvider: { configured: config.help !== null },
    oauthEnabled: config.oauthEnabled,
    federation: { enabled: config.federationEnabled, samlEnabled: config.samlEnabled },
  };
}

const cache = globalThis as unknown as { __identityEvidence?: { at: number; value: Promise<Evidence> } };

export async function getEvidence(): Promise<Evidence> {
  const ttlMs = getConfig().ttl.statusEvidence * 1000;
  const cached = cache.__identityEvidence;
  if (cached && Date.now() - cached.at < ttlMs) return cached.value;
  const value = collect();
  cache.__identityEvidence = { at: Date.now(), value };
  value.catch(() => {
    if (cache.__identityEvidence?.value === value) cache.__identityEvidence = undefined;
  });
  return value;
}

export function forgetEvidence(): void {
  cache.__identityEvidence = undefined;
}
