import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './auth'
import { organizations } from './organizations'

/**
 * Bearer tokens of an organisation's SCIM endpoint (/scim/v2). Only the SHA-256 of a token is
 * kept; `start` is its first characters, to tell tokens apart in a list. Revoking deletes the row.
 */
export const scimTokens = sqliteTable(
  'scim_tokens',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    start: text('start').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('scim_tokens_organization_idx').on(t.organizationId)],
)
