import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { groups, memberships, organizations } from './organizations';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Organization-bound SCIM bearer tokens (`scim_` prefix). Only the SHA-256 of the token is stored; the
 * token itself is shown once. A revoked token stays listed (with when), and authenticates nothing.
 */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** `scim_` and the first characters: enough to recognise a token in a list, useless to an attacker. */
    displayPrefix: text('display_prefix').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('scim_tokens_hash_idx').on(t.tokenHash), index('scim_tokens_org_keyset_idx').on(t.organizationId, t.createdAt, t.id)],
);

export interface DirectoryEmail {
  value: string;
  type: string | null;
  primary: boolean;
}

/**
 * Users a directory provisioned into an organization: the SCIM resource (its attributes as the
 * directory sent them) and the account and membership it stands for. A deprovisioned user keeps its
 * row (marked) so the organization's directory is known to have created the account; it is no longer a
 * resource. `user_name_key` is the lower-cased userName: unique per organization among live users.
 * `active` is not kept here: it is the membership's status, whoever changed it.
 */
export const scimUsers = pgTable(
  'scim_users',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    membershipId: uuid('membership_id')
      .notNull()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    /** Position in the directory's creation order (per organization, never reused): SCIM lists page on it. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    userName: text('user_name').notNull(),
    userNameKey: text('user_name_key').notNull(),
    externalId: text('external_id'),
    givenName: text('given_name'),
    familyName: text('family_name'),
    formattedName: text('formatted_name'),
    displayName: text('display_name'),
    emails: jsonb('emails').$type<DirectoryEmail[]>().notNull(),
    /** The account was created for this directory user (not linked): the directory may link it again later. */
    createdAccount: boolean('created_account').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    deprovisionedAt: at('deprovisioned_at'),
  },
  (t) => [
    uniqueIndex('scim_users_user_name_idx')
      .on(t.organizationId, t.userNameKey)
      .where(sql`${t.deprovisionedAt} is null`),
    uniqueIndex('scim_users_account_idx')
      .on(t.organizationId, t.userId)
      .where(sql`${t.deprovisionedAt} is null`),
    index('scim_users_external_id_idx').on(t.organizationId, t.externalId),
    index('scim_users_order_idx')
      .on(t.organizationId, t.seq)
      .where(sql`${t.deprovisionedAt} is null`),
    index('scim_users_user_idx').on(t.userId),
    index('scim_users_membership_idx').on(t.membershipId),
  ],
);

/**
 * The directory's side of an organization's group: its externalId (immutable once set) and that a
 * directory manages it. The group itself, its name and its members are the organization's.
 */
export const scimGroups = pgTable(
  'scim_groups',
  {
    groupId: uuid('group_id')
      .primaryKey()
      .references(() => groups.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('scim_groups_org_idx').on(t.organizationId, t.createdAt, t.groupId), index('scim_groups_external_id_idx').on(t.organizationId, t.externalId)],
);

/** Per organization: the next `seq` for a directory user (taken under the directory's lock). */
export const scimDirectories = pgTable('scim_directories', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  nextSeq: bigint('next_seq', { mode: 'number' }).notNull(),
});

/**
 * How many live directory users each block of 1,024 consecutive `seq` values holds: a SCIM page at
 * `startIndex` N finds its block by summing these (a few hundred rows for 100,000 users) and skips
 * at most one block's rows, never N (lib/scim/users/users.repo.ts). Kept in step by every provisioning
 * and deprovisioning, in the same transaction.
 */
export const scimUserBlocks = pgTable(
  'scim_user_blocks',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    block: bigint('block', { mode: 'number' }).notNull(),
    liveCount: integer('live_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.block] })],
);
