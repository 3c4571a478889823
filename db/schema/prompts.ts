import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './auth'
import { groups } from './governance'
import { organizations } from './organizations'

/**
 * A saved prompt of the prompt library. Private to the user who saved it unless shared: with the
 * whole organisation (`sharedWithOrganization`) and/or with groups (`prompt_groups`). Those it is
 * shared with may read and use it, never change it; they make a copy to change it.
 */
export const prompts = sqliteTable(
  'prompts',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    content: text('content').notNull(),
    sharedWithOrganization: integer('shared_with_organization', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [index('prompts_user_idx').on(t.userId, t.updatedAt), index('prompts_organization_idx').on(t.organizationId, t.updatedAt)],
)

/** A group a prompt is shared with (read-only for its members). Same organisation (checked when set). */
export const promptGroups = sqliteTable(
  'prompt_groups',
  {
    promptId: text('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.promptId, t.groupId] }), index('prompt_groups_group_idx').on(t.groupId)],
)
