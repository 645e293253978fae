import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * Browser sessions. The sealed cookie carries the id and a secret; only the secret's hash is stored,
 * so the table can be listed and revoked but a database read does not yield usable cookies.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    amr: jsonb('amr').$type<string[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    authenticatedAt: timestamp('authenticated_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    stepUpAt: timestamp('step_up_at', { withTimezone: true, mode: 'date' }),
    stepUpMethod: text('step_up_method', { enum: ['passkey', 'password'] }),
    /** A coarse, privacy-minimised description ("Chrome on Linux"), never the raw user agent. */
    deviceLabel: text('device_label'),
    /**
     * Keyed hash of the device binding at sign-in (user agent + client network prefix), compared when
     * an organization's `session.binding` policy is on. Never the user agent or the address itself.
     */
    bindingHash: text('binding_hash'),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('sessions_user_idx').on(t.userId, t.createdAt)],
);
