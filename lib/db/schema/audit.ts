import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Append-only audit trail. `data` is privacy-minimised by the writer: never secrets, codes, tokens,
 * full IP addresses or user agents.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    action: text('action').notNull(),
    outcome: text('outcome', { enum: ['success', 'failure'] }).notNull(),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    organizationId: uuid('organization_id'),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    requestId: text('request_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_events_org_keyset_idx').on(t.organizationId, t.createdAt.desc(), t.id.desc()),
    index('audit_events_actor_keyset_idx').on(t.actorId, t.createdAt.desc(), t.id.desc()),
  ],
);
