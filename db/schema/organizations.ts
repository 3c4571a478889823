import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

/** A tenant: every tenant-owned row points at one. */
export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  /** Whether members' API keys work (the OpenAI-compatible API under /v1); an admin can switch it off. */
  apiAccess: integer('api_access', { mode: 'boolean' }).notNull().default(true),
  /** Chats are deleted this many days after their last message; null: kept (docs/decisions/0065-retention.md). */
  chatRetentionDays: integer('chat_retention_days'),
  /** Uploaded files (of chats and knowledge collections) are deleted this many days after their upload; null: kept. */
  fileRetentionDays: integer('file_retention_days'),
  /** Members with a password must have a second factor (TOTP or a passkey) before using the app (docs/decisions/0070-two-factors.md). */
  requireTwoFactor: integer('require_two_factor', { mode: 'boolean' }).notNull().default(false),
})
