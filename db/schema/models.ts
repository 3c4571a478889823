import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { users } from './auth'
import { organizations } from './organizations'

/** A provider an admin has permitted for the organisation, with the terms they accepted. */
export const permittedProviders = sqliteTable(
  'permitted_providers',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull(),
    termsVersion: text('terms_version').notNull(),
    acceptedById: text('accepted_by_id').references(() => users.id, { onDelete: 'set null' }),
    acceptedByName: text('accepted_by_name').notNull(),
    acceptedAt: integer('accepted_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.providerId] })],
)

/** A model the organisation may use. Defaults point here and are cleared when it goes. */
export const permittedModels = sqliteTable(
  'permitted_models',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull(),
    model: text('model').notNull(),
    embedding: integer('embedding', { mode: 'boolean' }).notNull(),
    /** Open only to the groups in `model_group_access` (else to every member). */
    restricted: integer('restricted', { mode: 'boolean' }).notNull().default(false),
    /** The admin's price in US dollars per million tokens, instead of the catalogue's (both or neither). */
    priceInput: real('price_input'),
    priceOutput: real('price_output'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [uniqueIndex('permitted_models_unique').on(t.organizationId, t.providerId, t.model)],
)

/**
 * The organisation's model choices: its default language model and its one embedding model.
 * One row per organisation; the foreign keys clear a choice when its model is unpermitted.
 */
export const modelSettings = sqliteTable('model_settings', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  defaultModelId: text('default_model_id').references(() => permittedModels.id, { onDelete: 'set null' }),
  embeddingModelId: text('embedding_model_id').references(() => permittedModels.id, { onDelete: 'set null' }),
})

/** A member's own default model. */
export const userModelDefaults = sqliteTable('user_model_defaults', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  modelId: text('model_id')
    .notNull()
    .references(() => permittedModels.id, { onDelete: 'cascade' }),
})

/** An organisation's own OpenAI-compatible endpoint; the API key is encrypted at rest. */
export const modelEndpoints = sqliteTable(
  'model_endpoints',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    baseUrl: text('base_url').notNull(),
    apiKeyEncrypted: text('api_key_encrypted'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [index('model_endpoints_organization_idx').on(t.organizationId)],
)
