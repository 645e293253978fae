import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Transactional outbox: events are written in the same transaction as the change that caused them,
 * and delivered later (webhooks). Payloads are privacy-minimised by the emitter.
 */
export const outboxEvents = pgTable(
  'outbox_events',
  {
    id: uuid('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    type: text('type').notNull(),
    userId: uuid('user_id'),
    organizationId: uuid('organization_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('outbox_events_pending_idx').on(t.dispatchedAt, t.createdAt)],
);
