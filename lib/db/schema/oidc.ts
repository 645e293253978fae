import { sql } from 'drizzle-orm';
import { check, foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { organizations } from './organizations';

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

/**
 * The organization an OAuth authorization (a provider Grant) is bound to: chosen on the consent page
 * or named by the request's `organization` parameter. Every access token issued from the grant (code
 * exchange and refresh) carries it as `extra.organization_id`, and the sign-in that approved it is
 * kept for the organization's session policies. The row goes with its grant (composite
 * foreign key on the Grant's oidc_models row: consent revocation, recovery, expiry sweeps), and
 * `endOrganizationGrants` finds a member's grants of one organization through it.
 */
export const oidcGrantOrganizations = pgTable(
  'oidc_grant_organizations',
  {
    /** Always 'Grant': the composite foreign key names the Grant row of oidc_models. */
    model: text('model').notNull().default('Grant'),
    grantId: text('grant_id').notNull().primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /**
     * The sign-in whose session approved the authorization (the latest approval, when a grant is
     * extended): the methods it proved (passkey, password, email_code, federation) and when it
     * happened. The organization's sign-in policies judge the grant's tokens by it, on use and at
     * refresh. Null for bindings recorded before it was kept: unknown, so it meets no such policy.
     */
    signInMethods: text('sign_in_methods').array(),
    authenticatedAt: timestamp('authenticated_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    foreignKey({ name: 'oidc_grant_organizations_grant_fk', columns: [t.model, t.grantId], foreignColumns: [oidcModels.model, oidcModels.id] }).onDelete(
      'cascade',
    ),
    check('oidc_grant_organizations_model_check', sql`${t.model} = 'Grant'`),
    index('oidc_grant_organizations_member_idx').on(t.organizationId, t.userId),
  ],
);
