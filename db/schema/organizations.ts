import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

/** A tenant: every tenant-owned row points at one. */
export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  /** Whether members' API keys work (the OpenAI-compatible API under /v1); an admin can switch it off. */
  apiAccess: integer('api_access', { mode: 'boolean' }).notNull().default(true),
})
