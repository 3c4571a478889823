import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'
import { organizations } from './organizations'

const timestamps = {
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
}

/**
 * Members of an organisation; the columns better-auth needs plus role, organisation, locale and
 * theme (null until the member picks one: the browser's stored theme decides).
 */
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
    image: text('image'),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    locale: text('locale', { enum: ['en', 'de'] }).notNull().default('de'),
    theme: text('theme', { enum: ['light', 'dark'] }),
    /** The identity provider's id for this member (SCIM `externalId`), when provisioned by SCIM. */
    scimExternalId: text('scim_external_id'),
    /** Set while the member is deactivated (SCIM `active: false`): no sign-in, no seat. */
    deactivatedAt: integer('deactivated_at', { mode: 'timestamp_ms' }),
    /** Whether the member signs in with a TOTP code after the password (better-auth's two-factor plugin). */
    twoFactorEnabled: integer('two_factor_enabled', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index('users_organization_idx').on(t.organizationId)],
)

/** better-auth sessions (cookie token → user). */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

/** better-auth credentials; the password hash lives here. */
export const accounts = sqliteTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: integer('access_token_expires_at', { mode: 'timestamp_ms' }),
    refreshTokenExpiresAt: integer('refresh_token_expires_at', { mode: 'timestamp_ms' }),
    scope: text('scope'),
    password: text('password'),
    ...timestamps,
  },
  (t) => [index('accounts_user_idx').on(t.userId)],
)

/** better-auth one-time tokens (password reset). */
export const verifications = sqliteTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    ...timestamps,
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
)

/**
 * Personal API keys (better-auth's API-key plugin, model `apikey`): `key` is the SHA-256 of the
 * key, never the key; `referenceId` is the owning user; `lastRequest` is when it was last used.
 * Rate limits are Kontor's own (src/api/openai/limits.ts), so the plugin's counters stay unused.
 */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    configId: text('config_id').notNull().default('default'),
    name: text('name'),
    start: text('start'),
    prefix: text('prefix'),
    key: text('key').notNull(),
    referenceId: text('reference_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refillInterval: integer('refill_interval'),
    refillAmount: integer('refill_amount'),
    lastRefillAt: integer('last_refill_at', { mode: 'timestamp_ms' }),
    enabled: integer('enabled', { mode: 'boolean' }).default(true),
    rateLimitEnabled: integer('rate_limit_enabled', { mode: 'boolean' }).default(true),
    rateLimitTimeWindow: integer('rate_limit_time_window'),
    rateLimitMax: integer('rate_limit_max'),
    requestCount: integer('request_count').default(0),
    remaining: integer('remaining'),
    lastRequest: integer('last_request', { mode: 'timestamp_ms' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    permissions: text('permissions'),
    metadata: text('metadata'),
    ...timestamps,
  },
  (t) => [index('api_keys_key_idx').on(t.key), index('api_keys_reference_idx').on(t.referenceId)],
)

/**
 * A member's authenticator app (better-auth's two-factor plugin, model `twoFactor`): the TOTP
 * secret and the recovery codes, both encrypted with the auth secret; `verified` once the first
 * code was entered. Failed codes are counted here and lock the second step for a while.
 */
export const twoFactors = sqliteTable(
  'two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verified: integer('verified', { mode: 'boolean' }).default(true),
    failedVerificationCount: integer('failed_verification_count').default(0),
    lockedUntil: integer('locked_until', { mode: 'timestamp_ms' }),
  },
  (t) => [index('two_factors_user_idx').on(t.userId)],
)

/** A member's passkeys (WebAuthn credentials, the passkey plugin's model `passkey`): the public key only. */
export const passkeys = sqliteTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    publicKey: text('public_key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialID: text('credential_id').notNull(),
    counter: integer('counter').notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: integer('backed_up', { mode: 'boolean' }).notNull(),
    transports: text('transports'),
    aaguid: text('aaguid'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).$defaultFn(() => new Date()),
  },
  (t) => [index('passkeys_user_idx').on(t.userId), index('passkeys_credential_idx').on(t.credentialID)],
)
