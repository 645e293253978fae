import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    /** Lower-cased, NFC-normalised, verified before the row exists. */
    email: text('email').notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true, mode: 'date' }).notNull(),
    displayName: text('display_name'),
    locale: text('locale'),
    timezone: text('timezone'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email)],
);

/**
 * The server-side password proof: PBKDF2-HMAC-SHA256 over HMAC(pepper, password). `chain` lists the
 * iteration counts applied in order; raising the work factor appends to it without the password.
 * Lockout state lives here because it applies to password sign-in only.
 */
export const passwordCredentials = pgTable('password_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  salt: text('salt').notNull(),
  proof: text('proof').notNull(),
  chain: jsonb('chain').$type<number[]>().notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
  lockouts: integer('lockouts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url credential id, as the browser reports it. */
    credentialId: text('credential_id').notNull(),
    /** base64url COSE public key. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('passkeys_credential_id_idx').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * E-mail proofs: enrollment, recovery and e-mail code sign-in. Starts for addresses that must not be
 * revealed (unknown for recovery, existing for enrollment) create a row that can never verify, so
 * every later call behaves the same. Tokens and codes are stored as keyed hashes only. Wrong guesses
 * are counted per address and purpose, not per row (CODE_GUESS_BUDGET in lib/accounts/email-challenges.ts).
 */
export const emailChallenges = pgTable(
  'email_challenges',
  {
    id: uuid('id').primaryKey(),
    purpose: text('purpose', { enum: ['enrollment', 'recovery', 'signin'] }).notNull(),
    email: text('email').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash'),
    codeHash: text('code_hash').notNull(),
    canVerify: boolean('can_verify').notNull(),
    resends: integer('resends').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('email_challenges_token_idx').on(t.tokenHash), index('email_challenges_expires_idx').on(t.expiresAt)],
);

/** Server-side WebAuthn challenges: single use, short-lived, bound to what they were issued for. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: uuid('id').primaryKey(),
    purpose: text('purpose', { enum: ['enroll', 'signin', 'step_up', 'recovery', 'add'] }).notNull(),
    challenge: text('challenge').notNull(),
    /** What the ceremony is bound to: enrollment or recovery challenge id, session id, or none. */
    subject: text('subject'),
    userId: uuid('user_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);
