import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

/** A tenant: every tenant-owned row points at one. */
export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
})
