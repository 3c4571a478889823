import type { InValue } from '@libsql/client'
import { and, asc, eq, sql } from 'drizzle-orm'
import { sourceChunks, sources } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError } from '../../lib/errors'
import { embeddingModelOf, providerClient } from '../models/access'
import { EMBED_BATCH, embeddingText, LOCK_MS } from './process'
import { deleteVectors, ensureVectorTable, NO_VECTOR, storeVectors, vectorTable } from './vectors'


/** Vectors written per transaction. */
const VECTOR_BATCH = 100
/** A file whose new embedding failed is tried again after this long (it stays searchable meanwhile). */
const REEMBED_RETRY_MS = 5 * 60_000

/** Ready files embedded with another model than their organisation's current one (`s` is `sources`). */
const STALE = `s.status = 'ready' AND s.embedding_model IS NOT (
  SELECT pm.provider_id || '/' || pm.model FROM model_settings ms JOIN permitted_models pm ON pm.id = ms.embedding_model_id WHERE ms.organization_id = s.organization_id)
  AND EXISTS (SELECT 1 FROM model_settings ms WHERE ms.organization_id = s.organization_id AND ms.embedding_model_id IS NOT NULL)`

/**
 * Embeds again, in the background, the files of organisations whose embedding model changed: from
 * their stored chunks (nothing is parsed again), one file at a time under a claim on its row (the
 * same lease and lock as processing). A file stays ready while this runs: searches find it
 * through its old vectors (the query is embedded with the old model too while it is usable) and
 * by its words, until its new vectors replace the old in one transaction with its model. Run by
 * the sources upkeep (the Bun server's timer, the Workers cron trigger).
 */
export async function reembedSources(deps: AppDeps, { now = new Date(), limit = 5 } = {}) {
  const due = await deps.db.$client.execute({
    sql: `SELECT s.id FROM sources s WHERE ${STALE} AND (s.locked_until IS NULL OR s.locked_until < ?) ORDER BY s.created_at LIMIT ?`,
    args: [now.getTime(), limit],
  })
  let done = 0
  for (const row of due.rows) if (await reembedSource(deps, String(row.id), now)) done++
  return done
}

async function reembedSource(deps: AppDeps, id: string, now: Date) {
  const lease = crypto.randomUUID()
  const [source] = await deps.db
    .update(sources)
    .set({ lease, lockedUntil: new Date(now.getTime() + LOCK_MS) })
    .where(and(eq(sources.id, id), eq(sources.status, 'ready'), sql`(${sources.lockedUntil} IS NULL OR ${sources.lockedUntil} < ${now.getTime()})`))
    .returning()
  if (!source) return false
  const mine = and(eq(sources.id, id), eq(sources.status, 'ready'), eq(sources.lease, lease))
  const release = (lockedUntil: Date | null) => deps.db.update(sources).set({ lease: null, lockedUntil }).where(mine)
  try {
    const model = await embeddingModelOf(deps, source.organizationId)
    if (!model || model.modelId === source.embeddingModel) {
      await release(model ? null : new Date(Date.now() + REEMBED_RETRY_MS))
      return false
    }
    const chunks = await deps.db
      .select({ id: sourceChunks.id, content: sourceChunks.content, headingPath: sourceChunks.headingPath })
      .from(sourceChunks)
      .where(eq(sourceChunks.sourceId, id))
      .orderBy(asc(sourceChunks.seq))
    const client = await providerClient(deps, source.organizationId, model.providerId, { userId: source.userId, threadId: source.threadId })
    const rows: Array<{ chunkId: number; vector: Float32Array }> = []
    for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
      const batch = chunks.slice(i, i + EMBED_BATCH)
      const result = await client.embed({ model: model.model, input: batch.map((c) => embeddingText(source.name, c)) })
      if (result.vectors.length !== batch.length) throw new AppError('PROVIDER_BAD_RESPONSE')
      result.vectors.forEach((v, j) => rows.push({ chunkId: batch[j]!.id, vector: Float32Array.from(v) }))
      const renewed = await deps.db.update(sources).set({ lockedUntil: new Date(Date.now() + LOCK_MS) }).where(mine).returning({ id: sources.id })
      if (!renewed.length) return true
    }
    const dimensions = rows[0]?.vector.length ?? source.dimensions ?? 0
    if (rows.some((r) => r.vector.length !== dimensions)) throw new AppError('PROVIDER_BAD_RESPONSE')
    if (rows.length) await ensureVectorTable(deps.db, dimensions)
    // A batch of vectors per transaction: index inserts cost milliseconds a row, and one
    // transaction for a large file would hold the write lock longer than other writers wait. New
    // vectors of another dimension are not searched before the last transaction switches the file
    // over; of the same dimension, they replace the old ones as they come, so for the seconds this
    // takes part of the file answers a query with its new vectors.
    for (let i = 0; i < rows.length; i += VECTOR_BATCH) {
      const stored = await deps.db.transaction(async (tx) => {
        const [current] = await tx.select({ id: sources.id }).from(sources).where(mine)
        if (!current) return false
        await storeVectors(tx, rows.slice(i, i + VECTOR_BATCH))
        return true
      })
      if (!stored) return true
    }
    await deps.db.transaction(async (tx) => {
      const [current] = await tx.select({ id: sources.id }).from(sources).where(mine)
      if (!current) return
      if (source.dimensions && source.dimensions !== dimensions) await deleteVectors(tx, id, source.dimensions)
      await tx.update(sourceChunks).set({ embedding: NO_VECTOR }).where(and(eq(sourceChunks.sourceId, id), sql`length(${sourceChunks.embedding}) > 0`))
      await tx.run(sql`DELETE FROM source_vector_moves WHERE source_id = ${id}`)
      await tx.update(sources).set({ embeddingModel: model.modelId, dimensions, lease: null, lockedUntil: null }).where(mine)
    })
    return true
  } catch (error) {
    deps.logger.warn('embedding a file again failed; it is tried again later', { sourceId: id, error })
    await release(new Date(Date.now() + REEMBED_RETRY_MS)).catch(() => {})
    return true
  }
}

/**
 * The periodic upkeep of vectors, beside `sourceUpkeep` (the Bun server's timer, the Workers cron
 * trigger): vectors stored before the index are moved into it, then files embedded with an earlier
 * model are embedded again. Logs its own failure.
 */
export async function vectorUpkeep(deps: AppDeps) {
  await moveStoredVectors(deps)
    .then(() => reembedSources(deps))
    .catch((error) => deps.logger.warn('moving or embedding vectors again failed', { error }))
}

/**
 * Moves the vectors of files stored before the vector index (kept in `source_chunks.embedding`,
 * listed in `source_vector_moves` by migration 0027) into their dimension's table, a few files a run.
 */
export async function moveStoredVectors(deps: AppDeps, limit = 5) {
  const due = await deps.db.$client.execute({
    sql: `SELECT m.source_id AS id, s.dimensions FROM source_vector_moves m JOIN sources s ON s.id = m.source_id LIMIT ?`,
    args: [limit],
  })
  for (const row of due.rows) {
    const id = String(row.id)
    const dims = Number(row.dimensions)
    const statements: Array<{ sql: string; args: InValue[] }> = []
    if (dims > 0) {
      await ensureVectorTable(deps.db, dims)
      statements.push({
        sql: `INSERT OR REPLACE INTO ${vectorTable(dims)} (chunk_id, embedding) SELECT id, embedding FROM source_chunks WHERE source_id = ? AND length(embedding) = ?`,
        args: [id, dims * 4],
      })
    }
    statements.push(
      { sql: `UPDATE source_chunks SET embedding = x'' WHERE source_id = ? AND length(embedding) > 0`, args: [id] },
      { sql: 'DELETE FROM source_vector_moves WHERE source_id = ?', args: [id] },
    )
    await deps.db.$client.batch(statements, 'write')
  }
  return due.rows.length
}

/**
 * How far the organisation's files are embedded with its current embedding model (the admin
 * watches a change of model through it): ready files and their chunks, and how many of them are
 * done.
 */
export async function embeddingProgress(deps: AppDeps, caller: SessionUser) {
  const model = await embeddingModelOf(deps, caller.organizationId)
  const r = await deps.db.$client.execute({
    sql: `SELECT count(*) AS files, coalesce(sum(chunk_count), 0) AS chunks,
                 coalesce(sum(embedding_model = ?), 0) AS files_done, coalesce(sum(CASE WHEN embedding_model = ? THEN chunk_count ELSE 0 END), 0) AS chunks_done
          FROM sources WHERE organization_id = ? AND status = 'ready'`,
    args: [model?.modelId ?? null, model?.modelId ?? null, caller.organizationId],
  })
  const row = r.rows[0]!
  const files = Number(row.files)
  const filesDone = model ? Number(row.files_done) : 0
  return {
    model: model?.modelId ?? null,
    files,
    filesDone,
    chunks: Number(row.chunks),
    chunksDone: model ? Number(row.chunks_done) : 0,
    done: !model || filesDone === files,
  }
}
