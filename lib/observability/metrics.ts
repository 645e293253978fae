/**
 * Prometheus metrics (prom-client): one registry per process, kept on globalThis, because Next bundles
 * route handlers, the proxy and instrumentation separately and each bundle would otherwise build its
 * own registry and the scrape would see only one of them (STACK-NOTES).
 *
 * Labels carry only what the service itself decided (an operation id, a status class, a method, an
 * outcome, a bucket or kind name): never a user, e-mail, token, client or organization id, so the
 * number of series stays bounded and a scrape reveals nobody.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SignInMethod } from '@/lib/contract/wire';

export type { SignInMethod };

export type SignInOutcome = 'success' | 'failure' | 'locked' | 'rate_limited';

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'identity_http_requests_total',
      help: 'Requests answered, by operation id and status class.',
      labelNames: ['operation', 'status_class'] as const,
      registers,
    }),
    requestDuration: new Histogram({
      name: 'identity_http_request_duration_seconds',
      help: 'Time from the request reaching the pipeline to its answer, by operation id and status class.',
      labelNames: ['operation', 'status_class'] as const,
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    inFlight: new Gauge({ name: 'identity_http_requests_in_flight', help: 'Requests being served right now (pages included).', registers }),
    signIns: new Counter({
      name: 'identity_signin_attempts_total',
      help: 'Sign-in attempts by method and outcome (a locked account answers the generic failure; counted here as locked).',
      labelNames: ['method', 'outcome'] as const,
      registers,
    }),
    tokenGrants: new Counter({
      name: 'identity_oauth_token_grants_total',
      help: 'Token endpoint grants by grant type and outcome.',
      labelNames: ['grant_type', 'outcome'] as const,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'identity_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, retry, failed, disabled).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    webhookAttemptDuration: new Histogram({
      name: 'identity_webhook_attempt_duration_seconds',
      help: 'Time of one signed POST to a receiver, whatever its outcome.',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers,
    }),
    webhookQueueDepth: new Gauge({
      name: 'identity_webhook_queue_due',
      help: 'Webhook deliveries due now (queued or retrying), read at scrape time.',
      registers,
    }),
    webhookOldestDue: new Gauge({
      name: 'identity_webhook_oldest_due_age_seconds',
      help: 'How long the oldest due webhook delivery has waited past its due time, read at scrape time (0 when none is due).',
      registers,
    }),
    dbTransactionsActive: new Gauge({
      name: 'identity_db_transactions_active',
      help: 'Database transactions holding a pooled connection right now.',
      registers,
    }),
    dbTransactionWait: new Histogram({
      name: 'identity_db_transaction_wait_seconds',
      help: 'Time from asking for a transaction to holding its connection (pool wait plus BEGIN).',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers,
    }),
    dbPoolSize: new Gauge({ name: 'identity_db_pool_max_connections', help: 'Connections the database pool may open.', registers }),
    passwordHashing: new Gauge({
      name: 'identity_password_hashing_tasks',
      help: 'Password hashing tasks running and waiting in the bounded queue.',
      labelNames: ['state'] as const,
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'identity_rate_limit_refusals_total',
      help: 'Requests refused because a rate-limit bucket was spent, by bucket.',
      labelNames: ['bucket'] as const,
      registers,
    }),
    securityEvents: new Counter({
      name: 'identity_security_events_total',
      help: 'Security events (failed authentication or authorization, CSRF, Origin, rate limits, probing) by kind.',
      labelNames: ['kind'] as const,
      registers,
    }),
    ready: new Gauge({ name: 'identity_ready', help: '1 while the instance reports ready (or degraded), 0 when not ready or draining.', registers }),
  };
}

export type Metrics = ReturnType<typeof build>;

const holder = globalThis as unknown as { __identityMetrics?: Metrics };

export function metrics(): Metrics {
  return (holder.__identityMetrics ??= build());
}

export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export function countSignIn(method: SignInMethod, outcome: SignInOutcome): void {
  metrics().signIns.inc({ method, outcome });
}

/** The exposition text and its content type, for the /metrics answer. */
export async function scrape(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
