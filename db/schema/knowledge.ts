import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './auth'
import { agents, threads } from './chat'
import { groups } from './governance'
import { organizations } from './organizations'

export const COLLECTION_ROLES = ['reader', 'editor'] as const

/**
 * A knowledge collection: files uploaded once (rows of `sources` with `collection_id`) that chats
 * and agents search. Private to its owner unless shared: with the whole organisation
 * (`organizationRole`) and/or with groups (`collection_groups`), each as reader or editor.
 */
export const collections = sqliteTable(
  'collections',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The owner: the only one who may share or delete the collection. */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** Every member of the organisation has this role; null: not shared with the organisation. */
    organizationRole: text('organization_role', { enum: COLLECTION_ROLES }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [index('collections_organization_idx').on(t.organizationId, t.name), index('collections_user_idx').on(t.userId)],
)

/** A group a collection is shared with, and the role its members have. Same organisation (checked when set). */
export const collectionGroups = sqliteTable(
  'collection_groups',
  {
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    role: text('role', { enum: COLLECTION_ROLES }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.groupId] }), index('collection_groups_group_idx').on(t.groupId)],
)

/** Collections attached to a chat: its source_query searches them (while its user may read them). */
export const threadCollections = sqliteTable(
  'thread_collections',
  {
    threadId: text('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.collectionId] }), index('thread_collections_collection_idx').on(t.collectionId)],
)

/** Collections of an agent: every chat with the agent searches them (while the chat's user may read them). */
export const agentCollections = sqliteTable(
  'agent_collections',
  {
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.collectionId] }), index('agent_collections_collection_idx').on(t.collectionId)],
)
