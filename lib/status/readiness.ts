import { getConfig } from '@/lib/config';
import type { CheckState, Evidence } from './evidence';

export interface ReadinessCheck {
  id: string;
  state: CheckState;
  detail: string;
}

/**
 * The deployment gate: every check passes (ready), some are degraded, or one fails (not_ready). The
 * lifecycle check is read now, not from cached evidence: a draining instance is not ready at once.
 */
export function readinessChecks(e: Evidence, draining = false): ReadinessCheck[] {
  return [
    { id: 'lifecycle', state: draining ? 'fail' : 'pass', detail: draining ? 'shutting down: finishing the requests in flight' : 'serving' },
    {
      id: 'database',
      state: e.database.state,
      detail: e.database.state === 'pass' ? `${e.database.driver} answered in ${e.database.latencyMs} ms` : 'unavailable',
    },
    {
      id: 'migrations',
      state: e.migrations.state,
      detail:
        e.migrations.applied === null ? 'unavailable' : `${e.migrations.applied} applied, ${e.migrations.shipped} shipped (latest ${e.migrations.latest})`,
    },
    {
      id: 'keys',
      state: e.keys.state,
      detail:
        e.keys.state === 'fail'
          ? 'the data encryption key is unusable'
          : e.keys.generated
            ? 'generated into DATA_DIR (embedded mode)'
            : 'provided by the operator',
    },
    {
      id: 'mail',
      state: e.mail.state,
      detail:
        e.mail.transport === 'smtp_ready'
          ? 'SMTP handshake succeeded'
          : e.mail.transport === 'dev_mailbox'
            ? 'dev mailbox (no SMTP_URL)'
            : 'SMTP handshake failed',
    },
    {
      id: 'password_hashing',
      state: e.passwordHashing.state,
      detail: `PBKDF2-HMAC-SHA256 with ${e.passwordHashing.iterations} iterations`,
    },
  ];
}

export function overallReadiness(checks: ReadinessCheck[]): 'ready' | 'degraded' | 'not_ready' {
  if (checks.some((c) => c.state === 'fail')) return 'not_ready';
  return checks.some((c) => c.state === 'degraded') ? 'degraded' : 'ready';
}

export interface RehearsalGate {
  id: 'approval' | 'exact_origin' | 'independent_gates' | 'data_store' | 'operational_email';
  passed: boolean;
  detail: string;
}

/**
 * The launch rehearsal fails closed: `go` only when every gate has positive evidence. Absent
 * evidence is a failed gate, never a pass.
 */
export function rehearsalGates(e: Evidence): RehearsalGate[] {
  const config = getConfig();
  const origin = new URL(config.origin);
  const independent: string[] = [];
  if (config.secretsGenerated) independent.push('secrets were generated, not provided');
  if (e.passwordHashing.state !== 'pass') independent.push('password work factor below the default');
  if (config.rateLimitScale !== 1) independent.push('RATE_LIMIT_SCALE is not 1');
  if (config.outboundAllowPrivateNetworks) independent.push('outbound requests may reach private networks');
  if (config.localDevelopment) independent.push('local development is on (loopback webhook receivers, /dev/mail)');
  if (e.keys.state === 'fail') independent.push('the data encryption key is unusable');
  return [
    {
      id: 'approval',
      passed: config.launchApprovedBy !== null,
      detail: config.launchApprovedBy ? 'launch approval recorded' : 'LAUNCH_APPROVED_BY is not set',
    },
    {
      id: 'exact_origin',
      passed: origin.protocol === 'https:' && origin.hostname !== 'localhost',
      detail: origin.protocol === 'https:' ? 'BASE_URL is an https origin' : 'BASE_URL is not a public https origin',
    },
    { id: 'independent_gates', passed: independent.length === 0, detail: independent.length === 0 ? 'all production gates hold' : independent.join('; ') },
    {
      id: 'data_store',
      passed: e.database.driver === 'postgres' && e.database.state === 'pass' && e.migrations.state === 'pass',
      detail:
        e.database.driver === 'pglite'
          ? 'embedded database (not for production)'
          : e.database.state === 'pass'
            ? e.migrations.state === 'pass'
              ? 'Postgres reachable and migrated'
              : 'migrations not applied'
            : 'unavailable',
    },
    {
      id: 'operational_email',
      passed: e.mail.transport === 'smtp_ready',
      detail: e.mail.transport === 'smtp_ready' ? 'SMTP handshake succeeded' : 'no working SMTP transport',
    },
  ];
}
