import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

/** Every e-mail Kontor sends, with its delivery state; the only copy when no SMTP is configured. */
export const outboxEmails = sqliteTable('outbox_emails', {
  id: text('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  status: text('status', { enum: ['logged', 'sent', 'failed'] }).notNull(),
  error: text('error'),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
})

/** Fixed-window counters shared by every server process (login attempts, mails per address). */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: integer('reset_at').notNull(),
})

/**
 * One row: a random number that every write to a table a chat's reply context is read from changes
 * (by triggers, drizzle/0033), so that a process may keep a context while it is unchanged
 * (src/api/chat/reply-context.ts, decision 0126).
 */
export const contextVersion = sqliteTable('context_version', {
  id: integer('id').primaryKey(),
  n: integer('n').notNull(),
})
