import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'
import { organizations } from './organizations'

/**
 * An organisation's OpenID Connect identity provider, in the shape better-auth's SSO plugin reads
 * (model `ssoProvider`). `oidcConfig` is JSON whose `clientSecret` is encrypted with the instance
 * secret (src/auth/sso-secrets.ts decrypts it for the plugin). `domain` lists the verified domains,
 * comma-separated; the Kontor columns after it are the organisation's rules.
 */
export const ssoProviders = sqliteTable('sso_providers', {
  id: text('id').primaryKey(),
  providerId: text('provider_id').notNull().unique(),
  issuer: text('issuer').notNull(),
  oidcConfig: text('oidc_config'),
  samlConfig: text('saml_config'),
  /** The admin who configured it last. */
  userId: text('user_id'),
  organizationId: text('organization_id')
    .notNull()
    .unique()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  domain: text('domain').notNull().default(''),
  domainVerified: integer('domain_verified', { mode: 'boolean' }).notNull().default(false),
  /** Role of members created at their first sign-in through the provider. */
  defaultRole: text('default_role', { enum: ['user', 'admin'] }).notNull().default('user'),
  /** Whether members at the provider's domains may still sign in with a password. */
  passwordSignIn: integer('password_sign_in', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
})

/** An e-mail domain an organisation claims for its identity provider; one organisation per domain. */
export const ssoDomains = sqliteTable('sso_domains', {
  domain: text('domain').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** The value of the TXT record that proves the claim (cloud mode). */
  verificationToken: text('verification_token').notNull(),
  /** When the claim was proven (cloud) or made (self-hosted); null while unproven. */
  verifiedAt: integer('verified_at', { mode: 'timestamp_ms' }),
})
