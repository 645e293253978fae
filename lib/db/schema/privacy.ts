import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Account deletion requests (lib/privacy/deletion): at most one pending per account. A completed
 * request outlives the account it erased: the user reference goes (set null with the account) and
 * what stays is the request's own record (when, and which operator completed it).
 */
export const deletionRequests = pgTable(
  'deletion_requests',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['pending', 'cancelled', 'completed'] }).notNull(),
    requestedAt: at('requested_at').notNull(),
    cancelledAt: at('cancelled_at'),
    completedAt: at('completed_at'),
    /** The operator who completed it (the review command's --operator), never the person's data. */
    completedBy: text('completed_by'),
  },
  (t) => [
    uniqueIndex('deletion_requests_pending_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('deletion_requests_user_idx').on(t.userId, t.requestedAt),
    index('deletion_requests_status_idx').on(t.status, t.requestedAt),
  ],
);
