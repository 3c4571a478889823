import { customType, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './auth'
import { threads } from './chat'
import { collections } from './knowledge'
import { organizations } from './organizations'

/**
 * A libSQL vector column of 32-bit floats. Declared without a dimension: the organisation's
 * embedding model decides it, and one table holds vectors of every model (a search compares a
 * query only with chunks of its own model and length). An ANN index would need a fixed N; exact
 * search over one thread's chunks needs none.
 */
export const f32Vector = customType<{ data: Float32Array; driverData: Uint8Array | ArrayBuffer }>({
  dataType: () => 'F32_BLOB',
  toDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) => {
    const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : value
    // Copy: the driver's buffer may not be 4-byte aligned.
    return new Float32Array(bytes.slice().buffer)
  },
})

/**
 * A file attached to a thread, or a file of a knowledge collection: exactly one of `threadId` and
 * `collectionId` is set (a CHECK in the migration). The row is also the processing job: `processing` until parsed,
 * chunked and embedded (`ready`) or refused (`failed`, with an error code). `lease` and
 * `lockedUntil` are the claim of the process working on it: only the holder of the lease may renew
 * it or store the result, and a claim that runs out belongs to a process that died.
 */
export const sources = sqliteTable(
  'sources',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    threadId: text('thread_id').references(() => threads.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id').references(() => collections.id, { onDelete: 'cascade' }),
    /** Who uploaded it. */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    fileName: text('file_name').notNull(),
    kind: text('kind', { enum: ['pdf', 'docx', 'pptx', 'xlsx', 'eml', 'msg', 'txt', 'md', 'csv', 'html', 'png', 'jpeg'] }).notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    /** Where the file is kept in the file store. */
    fileKey: text('file_key').notNull(),
    status: text('status', { enum: ['processing', 'ready', 'failed'] }).notNull(),
    /** An error code (src/lib/errors.ts) when failed. */
    error: text('error'),
    pages: integer('pages'),
    chunkCount: integer('chunk_count').notNull().default(0),
    /** The embedding model (`provider/model`) and vector length the chunks were embedded with. */
    embeddingModel: text('embedding_model'),
    dimensions: integer('dimensions'),
    attempts: integer('attempts').notNull().default(0),
    /** A random token of the claim; a process that lost its claim finds another token here. */
    lease: text('lease'),
    lockedUntil: integer('locked_until', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [
    index('sources_thread_idx').on(t.threadId, t.createdAt),
    index('sources_collection_idx').on(t.collectionId, t.fileName),
    index('sources_status_idx').on(t.status, t.lockedUntil),
    // The retention run finds an organisation's files past their period (src/api/retention/job.ts).
    index('sources_organization_created_idx').on(t.organizationId, t.createdAt),
  ],
)

/**
 * A passage of a source (searched through its source's thread or collection) with its page and heading path, and its embedding. An FTS5 table
 * (`source_chunks_fts`, kept in step by triggers; see the migration) indexes content and headings.
 */
export const sourceChunks = sqliteTable(
  'source_chunks',
  {
    /** Integer key: it is the FTS5 table's rowid. */
    id: integer('id').primaryKey({ autoIncrement: true }),
    sourceId: text('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    content: text('content').notNull(),
    headingPath: text('heading_path').notNull().default(''),
    page: integer('page'),
    pageEnd: integer('page_end'),
    /** Read by text recognition (OCR) from a scan or picture: citations say so. */
    recognised: integer('recognised', { mode: 'boolean' }).notNull().default(false),
    embedding: f32Vector('embedding').notNull(),
  },
  (t) => [index('source_chunks_source_idx').on(t.sourceId, t.seq)],
)

/**
 * Stored files whose source rows are gone, waiting to be removed from the file store. A trigger
 * (see the migration) adds the key of every deleted source, however it was deleted: by itself, with
 * its thread, its user or its organisation. Deleting paths remove their files right after the
 * commit; the background job removes whatever is left (a failed delete, a deletion made in SQL).
 */
export const deletedFiles = sqliteTable('deleted_files', {
  fileKey: text('file_key').primaryKey(),
  /** When to try (again): the deletion's time, put off after a failed attempt. */
  dueAt: integer('due_at', { mode: 'timestamp_ms' }).notNull(),
})
