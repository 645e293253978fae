import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { organizations } from './organizations';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Domains an organization claims, proven by a DNS TXT record. `pending` becomes `verified` when the
 * record is found; a pending domain past its verification window reads as `failed` (computed, never
 * stored). A name is verified by one organization at most (the partial unique index), while several
 * may hold it pending, so nobody can block another's claim by registering first.
 */
export const organizationDomains = pgTable(
  'organization_domains',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Lower case, IDNA ASCII form (what DNS and e-mail addresses compare). */
    domain: text('domain').notNull(),
    status: text('status', { enum: ['pending', 'verified'] }).notNull(),
    /** The random value of the TXT record to publish: public by nature (anyone can read DNS). */
    verificationToken: text('verification_token').notNull(),
    verifiedAt: at('verified_at'),
    lastCheckedAt: at('last_checked_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('organization_domains_org_domain_idx').on(t.organizationId, t.domain),
    uniqueIndex('organization_domains_verified_idx')
      .on(t.domain)
      .where(sql`${t.status} = 'verified'`),
    index('organization_domains_keyset_idx').on(t.organizationId, t.createdAt, t.id),
  ],
);

/**
 * An organization's own identity provider. `connection_id` is chosen by the admin and unique across
 * the service (sign-in starts from it alone). The OIDC client secret is sealed (lib/platform/encryption),
 * never returned; SAML keeps the IdP metadata as given (XML, or the URL it is fetched from).
 */
export const federationConnections = pgTable(
  'federation_connections',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    connectionId: text('connection_id').notNull(),
    protocol: text('protocol', { enum: ['oidc', 'saml'] }).notNull(),
    displayName: text('display_name').notNull(),
    status: text('status', { enum: ['registered', 'active', 'disabled'] }).notNull(),
    issuer: text('issuer'),
    clientId: text('client_id'),
    clientSecretSealed: text('client_secret_sealed'),
    scopes: jsonb('scopes').$type<string[]>(),
    samlMetadataXml: text('saml_metadata_xml'),
    samlMetadataUrl: text('saml_metadata_url'),
    /** What activation read from the validated metadata: sign-in uses exactly this, nothing fetched later. */
    samlIdpEntityId: text('saml_idp_entity_id'),
    samlSsoUrl: text('saml_sso_url'),
    samlSigningCertificates: jsonb('saml_signing_certificates').$type<string[]>(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('federation_connections_connection_id_idx').on(t.connectionId),
    index('federation_connections_keyset_idx').on(t.organizationId, t.createdAt, t.id),
  ],
);

/**
 * Which verified domains a connection serves. A domain in use cannot be deleted on its own (`no action`
 * is checked at the end of the statement, so deleting the whole organization still cascades).
 */
export const federationConnectionDomains = pgTable(
  'federation_connection_domains',
  {
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => federationConnections.id, { onDelete: 'cascade' }),
    domainId: uuid('domain_id')
      .notNull()
      .references(() => organizationDomains.id, { onDelete: 'no action' }),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.domainId] }), index('federation_connection_domains_domain_idx').on(t.domainId)],
);

/**
 * A federated sign-in in flight: single use, 10 minutes. The state travels to the provider and back;
 * only its hash is stored. The PKCE verifier and the nonce are sealed (they must be read back). The
 * browser that started it holds a random binding in a cookie, stored here as a hash: a callback URL
 * replayed into another browser (login CSRF) does not complete.
 */
export const federationTransactions = pgTable(
  'federation_transactions',
  {
    stateHash: text('state_hash').primaryKey(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => federationConnections.id, { onDelete: 'cascade' }),
    protocol: text('protocol', { enum: ['oidc', 'saml'] }).notNull(),
    /** OIDC only. For SAML, the state is the AuthnRequest's ID (the response's InResponseTo). */
    nonceSealed: text('nonce_sealed'),
    codeVerifierSealed: text('code_verifier_sealed'),
    browserBindingHash: text('browser_binding_hash').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
  },
  (t) => [index('federation_transactions_expiry_idx').on(t.expiresAt)],
);

/** A person known to a connection: keyed by (connection, subject), never by e-mail. */
export const federatedIdentities = pgTable(
  'federated_identities',
  {
    id: uuid('id').primaryKey(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => federationConnections.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    lastSignInAt: at('last_sign_in_at').notNull(),
  },
  (t) => [uniqueIndex('federated_identities_subject_idx').on(t.connectionId, t.subject), index('federated_identities_user_idx').on(t.userId)],
);

/**
 * SAML assertion ids seen, kept until the assertion's NotOnOrAfter: the same assertion presented
 * again (even within its validity, and even with another InResponseTo) is refused.
 */
export const samlAssertionReplays = pgTable(
  'saml_assertion_replays',
  {
    assertionIdHash: text('assertion_id_hash').primaryKey(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => federationConnections.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('saml_assertion_replays_expiry_idx').on(t.expiresAt)],
);
