import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every node-oidc-provider model (sessions, grants, codes, tokens, clients, interactions, ...) in one
 * table keyed by model + id, so any instance can serve any step of a flow. Secondary keys let the
 * provider find by uid or user code, and revoke every artefact of a grant at once. Where an id is a
 * bearer secret (tokens, codes, session and interaction ids) the key is its keyed hash and the payload
 * never holds it (lib/oidc/model-secrets.ts).
 */
export const oidcModels = pgTable(
  'oidc_models',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_models_grant_idx').on(t.grantId),
    index('oidc_models_uid_idx').on(t.model, t.uid),
    index('oidc_models_user_code_idx').on(t.model, t.userCode),
    index('oidc_models_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Signing keys (private JWKs) and cookie keys, encrypted with DATA_ENCRYPTION_KEY (AES-256-GCM).
 * `active` signs; `retiring` stays in the JWKS during roll-over so tokens it signed still verify.
 */
export const oidcKeys = pgTable('oidc_keys', {
  kid: text('kid').primaryKey(),
  use: text('use', { enum: ['signing', 'cookie'] }).notNull(),
  alg: text('alg'),
  status: text('status', { enum: ['active', 'retiring', 'retired'] }).notNull(),
  sealed: text('sealed').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  retiredAt: timestamp('retired_at', { withTimezone: true, mode: 'date' }),
});
