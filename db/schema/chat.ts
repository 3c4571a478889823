import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { users } from './auth'
import { groups } from './governance'
import { permittedModels } from './models'
import { organizations } from './organizations'

/**
 * An assistant: name, instructions, a model, its tools and collections. Private to the user who
 * made it unless shared (read-only) with the whole organisation and/or groups (`agent_groups`).
 */
export const agents = sqliteTable(
  'agents',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instructions: text('instructions').notNull(),
    modelId: text('model_id').references(() => permittedModels.id, { onDelete: 'set null' }),
    /** The built-in tools chats with the agent may offer (names of src/api/agents/limits.ts `AGENT_TOOLS`); every one unless chosen otherwise. */
    tools: text('tools', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'["internet_search","website_content","source_query","send_email"]'`),
    sharedWithOrganization: integer('shared_with_organization', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [index('agents_user_idx').on(t.userId)],
)

/** A group an agent is shared with (read-only for its members). Same organisation (checked when set). */
export const agentGroups = sqliteTable(
  'agent_groups',
  {
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.groupId] }), index('agent_groups_group_idx').on(t.groupId)],
)

/** A chat. Belongs to one user; uses its agent's model when it has an agent, else its own model. */
export const threads = sqliteTable(
  'threads',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title'),
    modelId: text('model_id').references(() => permittedModels.id, { onDelete: 'set null' }),
    agentId: text('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    lastMessageAt: integer('last_message_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    /** When the user pinned the chat to the top of their list; null when not pinned. */
    pinnedAt: integer('pinned_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    // The list's pages: a user's pinned chats, and the others newest first, read in index order
    // (pinned_at IS NULL is an equality on the index) with no sort of their own.
    index('threads_user_list_idx').on(t.userId, t.pinnedAt, t.lastMessageAt, t.id),
    // The retention run finds an organisation's chats past their period (src/api/retention/job.ts).
    index('threads_organization_activity_idx').on(t.organizationId, t.lastMessageAt),
  ],
)

/**
 * A message of a thread. An assistant message is written while it streams (status
 * `streaming`, content so far) and ends `complete`, `stopped` or `failed`, or `interrupted` when
 * the process writing it died. At most one message of a thread streams at a time: the partial
 * unique index is the lock for concurrent sends.
 *
 * The messages form a tree (docs/decisions/0060-reply-versions.md): each follows its `parentId`
 * (null for the first), and the versions of a message (a regenerated reply, an edited message)
 * are siblings. The branch the user sees is marked `onBranch`, root to leaf, in `seq` order; the
 * model reads only that branch, and a new message continues it.
 */
export const messages = sqliteTable(
  'messages',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull().default(''),
    reasoning: text('reasoning').notNull().default(''),
    /** Tool calls and results, in order (JSON). */
    parts: text('parts', { mode: 'json' }).$type<unknown[]>().notNull().default(sql`'[]'`),
    status: text('status', { enum: ['complete', 'streaming', 'stopped', 'failed', 'interrupted'] }).notNull(),
    errorCode: text('error_code'),
    model: text('model'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    /**
     * The lease of a streaming reply: the process writing it (`host:port/start` on Bun) and until
     * when it holds. Renewed with every write of the reply; a reply whose lease ran out, or whose
     * owner's slot was taken by a later start, is ended `interrupted` (src/api/threads/access.ts).
     */
    leaseOwner: text('lease_owner'),
    leaseUntil: integer('lease_until', { mode: 'timestamp_ms' }),
    /** The message this one follows (null: the first of the chat). No foreign key: messages go with their thread. */
    parentId: text('parent_id'),
    /** On the branch shown (and given to the model); the other versions and what followed them are not. */
    onBranch: integer('on_branch', { mode: 'boolean' }).notNull().default(true),
    /** When this version was last shown: switching to an earlier message goes on down the versions shown last. Null for messages older than versions (their `createdAt` counts). */
    shownAt: integer('shown_at', { mode: 'timestamp_ms' }).$defaultFn(() => new Date()),
    /**
     * When someone asked a streaming reply to stop (Stop in any tab, through any process): the
     * process writing it sees this on its next write tick and stops it (src/api/chat/reply-writer.ts).
     */
    stopRequestedAt: integer('stop_requested_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('messages_thread_seq_idx').on(t.threadId, t.seq),
    // A message's versions (its parent's children), those on or off the branch among them.
    index('messages_thread_parent_idx').on(t.threadId, t.parentId, t.onBranch),
    // The branch shown, in order: a chat's versions off the branch (every new reply and edit leaves one) are not read to find it.
    index('messages_thread_branch_idx').on(t.threadId, t.onBranch, t.seq),
    uniqueIndex('messages_one_streaming_idx').on(t.threadId).where(sql`status = 'streaming'`),
  ],
)

/**
 * A number for each streaming reply, which keys its appended parts (reply_chunks) instead of its
 * 36-character id: the parts a tick appends for a thousand replies then go into a small index
 * (decision 0116). Kept by triggers on `messages`: a row when a reply begins streaming, marked
 * `ended` when it stops (its text is then in its own row); an ended reply's parts and number go
 * shortly after, with those of the others that ended meanwhile (decision 0137,
 * src/api/search/index-later.ts): the parts a tick appended for many replies share pages, and
 * deleting each reply's alone at its end rewrote those pages once per reply.
 */
export const streamingReplies = sqliteTable(
  'streaming_replies',
  {
    n: integer('n').primaryKey(),
    messageId: text('message_id')
      .notNull()
      .unique()
      .references(() => messages.id, { onDelete: 'cascade' }),
    ended: integer('ended', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [index('streaming_replies_ended_idx').on(t.n).where(sql`${t.ended} = 1`)],
)

/**
 * What a streaming reply said since its message row was last written whole: the text and
 * reasoning of every few hundred milliseconds are appended here instead of rewriting the whole
 * reply (src/api/chat/reply-writer.ts), keyed by the reply's number (`streamingReplies`). The
 * message's text is its own columns followed by these rows in order; they are folded into it when
 * the reply ends, at a tool call, or when it is found interrupted. A tool call's write deletes
 * them; after the end they are read no more and go shortly after (decision 0137).
 */
export const replyChunks = sqliteTable(
  'reply_chunks',
  {
    replyN: integer('reply_n')
      .notNull()
      .references(() => streamingReplies.n, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    content: text('content').notNull().default(''),
    reasoning: text('reasoning').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.replyN, t.seq] })],
)

/**
 * Numbers the owners of the chat search index: a user's rows in it have rowids from `n` × 2³²
 * on, so a search reads the caller's own range of the index and nothing else.
 */
export const chatSearchOwners = sqliteTable('chat_search_owners', {
  n: integer('n').primaryKey(),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
})

/**
 * The rows of the chat search index (`chat_search`, an FTS5 table over titles and message text):
 * one per titled chat (`messageId` null) and one per message that is not streaming. The id is the
 * index's rowid, within its owner's range (`chatSearchOwners`), newer rows higher; the text stays
 * in `threads` and `messages` and the index reads it through the `chat_search_content` view. Kept
 * in step by triggers on `threads` and `messages` (docs/decisions/0051-chat-search-index.md).
 */
export const chatSearchDocs = sqliteTable(
  'chat_search_docs',
  {
    id: integer('id').primaryKey(),
    threadId: text('thread_id').notNull(),
    messageId: text('message_id'),
  },
  (t) => [uniqueIndex('chat_search_docs_message_idx').on(t.messageId), uniqueIndex('chat_search_docs_title_idx').on(t.threadId).where(sql`message_id IS NULL`)],
)

/**
 * Replies that ended and wait to be put in the chat search index: a reply's end only notes it
 * here (a trigger), and the waiting ones are indexed together shortly after, and at once before a
 * search (src/api/search/index-later.ts, docs/decisions/0107-replies-indexed-together.md).
 */
export const chatSearchWaiting = sqliteTable('chat_search_waiting', {
  messageId: text('message_id').primaryKey(),
})

/**
 * A read-only link to a snapshot of a chat (docs/decisions/0061-sharing-chats.md): the messages
 * of its branch shown, copied when it was shared, seen by the signed-in members of its
 * organisation, or of the chosen groups only (`chatShareGroups`). Revoking deletes it; it goes
 * with its chat.
 */
export const chatShares = sqliteTable(
  'chat_shares',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    threadId: text('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** The messages as they were shared (JSON: role, content, reasoning, parts, status, model, createdAt). */
    messages: text('messages', { mode: 'json' }).$type<unknown[]>().notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [index('chat_shares_thread_idx').on(t.threadId)],
)

/** The groups a shared chat is limited to; none: the whole organisation. */
export const chatShareGroups = sqliteTable(
  'chat_share_groups',
  {
    shareId: text('share_id')
      .notNull()
      .references(() => chatShares.id, { onDelete: 'cascade' }),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.groupId] })],
)
