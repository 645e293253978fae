import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window rate-limit counters shared by every instance. `subject` is a keyed hash of the client
 * address or account, never the raw value.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    bucket: text('bucket').notNull(),
    subject: text('subject').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    count: integer('count').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.subject] }), index('rate_limit_counters_expires_idx').on(t.expiresAt)],
);

/**
 * Stored responses for Idempotency-Key replay, scoped to principal + operation + key. An `in_flight`
 * record is held by the execution whose `claim_token` it carries, until `lease_expires_at`; then a
 * retry may take it over (a new token). Completion is conditional on the token, inside the
 * operation's own transaction. Records from before the lease existed have neither: free to take over.
 */
export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    principal: text('principal').notNull(),
    operationId: text('operation_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['in_flight', 'completed'] }).notNull(),
    claimToken: text('claim_token'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, mode: 'date' }),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.principal, t.operationId, t.key] }), index('idempotency_records_expires_idx').on(t.expiresAt)],
);

/**
 * How many security events (lib/http/security-events.ts) of each kind happened per hour, shared by
 * every instance: operators and tests read it with one query (docs/security.md). Holds no subject,
 * only the kind, so it can be kept longer than the log lines it summarises.
 */
export const securityEventCounts = pgTable(
  'security_event_counts',
  {
    kind: text('kind').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.windowStart] }), index('security_event_counts_window_idx').on(t.windowStart)],
);
