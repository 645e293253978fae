import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Tenants. Every tenant-owned table below carries `organization_id`, and every repository function
 * that reads one filters by it, so an id from another organization is simply not found.
 */
export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    /** URL-safe handle, unique across the service. */
    slug: text('slug').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [uniqueIndex('organizations_slug_idx').on(t.slug)],
);

/**
 * Custom roles: named permission sets of one organization. Built-in roles (owner, admin, member) live
 * in code (lib/contract/permissions.ts), not here.
 */
export const organizationRoles = pgTable(
  'organization_roles',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    /** Permissions of developers' APIs this role carries into organization-bound tokens for them (issue 23). */
    apiPermissions: jsonb('api_permissions').$type<{ resource: string; permission: string }[]>().notNull().default([]),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('organization_roles_name_idx').on(t.organizationId, t.name),
    index('organization_roles_keyset_idx').on(t.organizationId, t.createdAt, t.id),
  ],
);

/**
 * A person's place in an organization. `role` is a built-in role, or `custom` with `custom_role_id`.
 * Only `active` memberships grant anything; `revoked` is final (the user account stays).
 */
export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'member', 'custom'] }).notNull(),
    customRoleId: uuid('custom_role_id').references(() => organizationRoles.id),
    status: text('status', { enum: ['active', 'suspended', 'revoked'] }).notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('memberships_org_user_idx').on(t.organizationId, t.userId),
    index('memberships_user_idx').on(t.userId, t.createdAt),
    index('memberships_org_keyset_idx').on(t.organizationId, t.createdAt, t.id),
    index('memberships_custom_role_idx').on(t.customRoleId),
  ],
);

/** Invitations by e-mail; the token travels only in the mail, its hash is stored. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'member', 'custom'] }).notNull(),
    customRoleId: uuid('custom_role_id').references(() => organizationRoles.id),
    tokenHash: text('token_hash').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'revoked'] }).notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    membershipId: uuid('membership_id').references(() => memberships.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('invitations_token_idx').on(t.tokenHash),
    index('invitations_org_keyset_idx').on(t.organizationId, t.createdAt, t.id),
    index('invitations_custom_role_idx').on(t.customRoleId),
  ],
);

export const groups = pgTable(
  'organization_groups',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('organization_groups_name_idx').on(t.organizationId, t.name),
    index('organization_groups_keyset_idx').on(t.organizationId, t.createdAt, t.id),
  ],
);

export const groupMembers = pgTable(
  'organization_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    membershipId: uuid('membership_id')
      .notNull()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.membershipId] }), index('organization_group_members_keyset_idx').on(t.groupId, t.createdAt, t.membershipId)],
);

/**
 * Delegated-admin grants: a named member holds a subset of admin permissions, optionally until
 * `expires_at`. Created only by an owner; `revoked_at` ends one early.
 */
export const delegatedAdminGrants = pgTable(
  'delegated_admin_grants',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    membershipId: uuid('membership_id')
      .notNull()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    expiresAt: at('expires_at'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: at('revoked_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('delegated_admin_grants_org_keyset_idx').on(t.organizationId, t.createdAt, t.id),
    index('delegated_admin_grants_membership_idx').on(t.membershipId),
  ],
);

/** Organization policies: a typed value per `policy_key`; an absent row means the default applies. */
export const organizationPolicies = pgTable(
  'organization_policies',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    policyKey: text('policy_key').notNull(),
    value: jsonb('value').$type<unknown>().notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.policyKey] })],
);

/**
 * Approval requests with separation of duties: requested -> approved | rejected | expired | cancelled.
 * `consumed_at` marks the one change an approval let through.
 */
export const approvals = pgTable(
  'organization_approvals',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    /** What the approved change is about (a policy key, a membership id ...), matched when it is used. */
    target: text('target').notNull(),
    reason: text('reason'),
    status: text('status', { enum: ['requested', 'approved', 'rejected', 'cancelled'] }).notNull(),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: at('decided_at'),
    consumedAt: at('consumed_at'),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('organization_approvals_org_keyset_idx').on(t.organizationId, t.createdAt, t.id)],
);

/** The agent action catalog: schema-validated action descriptions; execution is not offered. */
export const agentActions = pgTable(
  'organization_agent_actions',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    inputSchema: jsonb('input_schema').$type<Record<string, unknown>>().notNull(),
    riskLevel: text('risk_level', { enum: ['low', 'medium', 'high'] }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('organization_agent_actions_name_idx').on(t.organizationId, t.name),
    index('organization_agent_actions_keyset_idx').on(t.organizationId, t.createdAt, t.id),
  ],
);
