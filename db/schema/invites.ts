import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './auth'
import { organizations } from './organizations'

/**
 * An invitation to join an organisation. Only the token's SHA-256 is stored. Status is derived
 * (see src/api/invites/status.ts): accepted, rejected (revoked by an admin), expired (7 days
 * after it was last sent) or pending.
 */
export const invites = sqliteTable(
  'invites',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['user', 'admin'] }).notNull(),
    locale: text('locale', { enum: ['en', 'de'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedById: text('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }).notNull(),
    acceptedAt: integer('accepted_at', { mode: 'timestamp_ms' }),
    acceptedUserId: text('accepted_user_id').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('invites_organization_idx').on(t.organizationId), index('invites_email_idx').on(t.email)],
)
