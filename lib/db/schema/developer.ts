import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { organizations } from './organizations';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * API keys (`idk_...`): owner-bound, scoped bearer credentials. Only the SHA-256 of the whole key is
 * stored (the key is shown once, at creation); `prefix` is its first characters, for display.
 * A key an application created for the person (the MCP create_api_key tool) names that OAuth client
 * and the grant it acted under: the key authenticates only while that grant lives. Both are null for
 * keys the person created in the portal.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at'),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
    createdByClientId: text('created_by_client_id'),
    grantId: text('grant_id'),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_idx').on(t.keyHash),
    index('api_keys_user_keyset_idx').on(t.userId, t.createdAt, t.id),
    index('api_keys_grant_idx').on(t.grantId),
  ],
);

/**
 * Applications: OAuth clients a developer registers in the portal. The provider's own client record
 * (oidc_models, model Client) is written from this row in the same transaction; this row is the
 * owner's view and the source of truth for status, requested and approved scopes. A confidential
 * client's secret is stored only as its SHA-256 (`secret_hash`): the provider compares hashes.
 */
export const developerApplications = pgTable(
  'developer_applications',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    clientType: text('client_type').$type<'confidential' | 'public'>().notNull(),
    redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
    /** What the owner asked for. */
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    /** What the provider lets the client request (certification): a subset of `scopes`. */
    approvedScopes: jsonb('approved_scopes').$type<string[]>().notNull(),
    grantTypes: jsonb('grant_types').$type<string[]>().notNull(),
    status: text('status').$type<'enabled' | 'disabled'>().notNull(),
    secretHash: text('secret_hash'),
    secretRotatedAt: at('secret_rotated_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    disabledAt: at('disabled_at'),
  },
  (t) => [uniqueIndex('developer_applications_client_id_idx').on(t.clientId), index('developer_applications_user_keyset_idx').on(t.userId, t.createdAt, t.id)],
);

/**
 * Organization application assignments: which applications an organization lets its members use
 * (enforced when its `applications.assigned_only` policy is on). DELETE disables, the row stays.
 */
export const organizationApplications = pgTable(
  'organization_applications',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => developerApplications.id, { onDelete: 'cascade' }),
    status: text('status').$type<'active' | 'disabled'>().notNull(),
    assignedBy: uuid('assigned_by'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    disabledAt: at('disabled_at'),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.applicationId] }),
    index('organization_applications_keyset_idx').on(t.organizationId, t.createdAt, t.applicationId),
  ],
);

/**
 * Webhook subscriptions. The signing secret (`whsec_...`) is shown once; the service keeps its
 * SHA-256 (to recognise it) and an AES-GCM sealed copy (it must sign with it).
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    description: text('description'),
    status: text('status').$type<'enabled' | 'disabled'>().notNull(),
    secretHash: text('secret_hash').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    secretRotatedAt: at('secret_rotated_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    disabledAt: at('disabled_at'),
  },
  (t) => [index('webhook_subscriptions_user_keyset_idx').on(t.userId, t.createdAt, t.id)],
);

/**
 * One event for one subscription. The worker claims due rows with FOR UPDATE SKIP LOCKED and a lease
 * (`leased_until`); a lease that runs out is claimed again, so a worker that dies loses nothing. The
 * unique (webhook, event) pair makes fan-out from the outbox idempotent.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The `{ type, timestamp, data }` envelope as sent (privacy-minimised by the emitter); never listed. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<'queued' | 'retrying' | 'delivered' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull(),
    nextAttemptAt: at('next_attempt_at'),
    leasedUntil: at('leased_until'),
    leaseOwner: text('lease_owner'),
    lastAttemptAt: at('last_attempt_at'),
    lastFailureCode: text('last_failure_code'),
    lastResponseStatus: integer('last_response_status'),
    deliveredAt: at('delivered_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_idx').on(t.webhookId, t.eventId),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_user_keyset_idx').on(t.userId, t.createdAt, t.id),
  ],
);

/** Each attempt's outcome: status code and safe failure code, never a payload or response body. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    attemptedAt: at('attempted_at').notNull(),
    responseStatus: integer('response_status'),
    failureCode: text('failure_code'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);

/** A permission of an API resource: a scope name and what it lets a client do, in plain words. */
export interface ApiPermission {
  name: string;
  description: string;
}

/**
 * API resources: a developer's own APIs, for which the provider issues access tokens (RFC 8707
 * resource indicators). `identifier` is the resource indicator and is never reused: a deleted API
 * keeps its row (status `deleted`, permissions emptied) as a tombstone, and so does an erased owner's
 * (user_id null), so a token audience can never come to mean another owner's API.
 */
export const apiResources = pgTable(
  'api_resources',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    identifier: text('identifier').notNull(),
    name: text('name').notNull(),
    permissions: jsonb('permissions').$type<ApiPermission[]>().notNull(),
    accessTokenTtlSeconds: integer('access_token_ttl_seconds').notNull(),
    /** Whether confidential applications may get tokens for it without a person (client credentials). */
    machineClients: boolean('machine_clients').notNull(),
    /** The owner's confidential application that is the API's own backend: it may introspect the API's tokens. */
    resourceServerClientId: text('resource_server_client_id').references(() => developerApplications.clientId, { onDelete: 'set null' }),
    status: text('status').$type<'enabled' | 'disabled' | 'deleted'>().notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    deletedAt: at('deleted_at'),
  },
  (t) => [uniqueIndex('api_resources_identifier_idx').on(t.identifier), index('api_resources_user_keyset_idx').on(t.userId, t.createdAt, t.id)],
);

/**
 * Machine access: which of the owner's confidential applications may get which of the API's
 * permissions with client credentials. A row per (API, client); no row, no machine token.
 */
export const apiResourceMachineAccess = pgTable(
  'api_resource_machine_access',
  {
    apiResourceId: uuid('api_resource_id')
      .notNull()
      .references(() => apiResources.id, { onDelete: 'cascade' }),
    clientId: text('client_id')
      .notNull()
      .references(() => developerApplications.clientId, { onDelete: 'cascade' }),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiResourceId, t.clientId] }), index('api_resource_machine_access_client_idx').on(t.clientId)],
);
