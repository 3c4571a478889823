import { and, asc, eq, inArray, lte } from 'drizzle-orm'
import { deletedFiles, sources, threads } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { settingsOf, usablePermittedModels } from '../models/permitted'
import type { SourceView } from './schema'

type SourceRow = typeof sources.$inferSelect

export const toSourceView = (s: SourceRow): SourceView => ({
  id: s.id,
  name: s.name,
  description: s.description,
  fileName: s.fileName,
  mimeType: s.mimeType,
  size: s.size,
  status: s.status,
  error: s.error,
  pages: s.pages,
  chunks: s.chunkCount,
  createdAt: s.createdAt.toISOString(),
})

/**
 * The caller's own thread, else THREAD_NOT_FOUND (as threads/service's findOwnThread, which
 * imports this module: kept here so the two modules do not import each other).
 */
export async function findOwnThread(deps: AppDeps, caller: SessionUser, id: string) {
  const thread = await deps.db.query.threads.findFirst({ where: and(eq(threads.id, id), eq(threads.userId, caller.id)) })
  return thread ?? fail('THREAD_NOT_FOUND')
}

/** The organisation's embedding model if it is set and usable, else null. */
export async function embeddingModelOf(deps: AppDeps, organizationId: string) {
  const [settings, usable] = await Promise.all([settingsOf(deps, organizationId), usablePermittedModels(deps, organizationId)])
  return usable.find((m) => m.id === settings.embeddingModelId && m.embedding) ?? null
}

/** Sources of a thread, oldest first (no ownership check: callers have done it). */
export async function sourcesOfThread(deps: AppDeps, threadId: string) {
  const rows = await deps.db.select().from(sources).where(eq(sources.threadId, threadId)).orderBy(asc(sources.createdAt), asc(sources.id))
  return rows.map(toSourceView)
}

/** The files of the caller's own thread, with their processing status (the web app polls this). */
export async function listSources(deps: AppDeps, caller: SessionUser, threadId: string) {
  await findOwnThread(deps, caller, threadId)
  return sourcesOfThread(deps, threadId)
}

/** Removes a source: its row, with it (by cascade and trigger) its chunks and their FTS rows, then its file. */
export async function deleteSource(deps: AppDeps, caller: SessionUser, threadId: string, sourceId: string) {
  await findOwnThread(deps, caller, threadId)
  const [row] = await deps.db
    .delete(sources)
    .where(and(eq(sources.id, sourceId), eq(sources.threadId, threadId)))
    .returning({ fileKey: sources.fileKey })
  if (!row) fail('SOURCE_NOT_FOUND')
  await removeFiles(deps, [row!.fileKey])
}

/** File keys of a thread's or a user's sources, read before the thread or user (and so the sources) is deleted. */
export async function fileKeysOf(deps: AppDeps, owner: { threadId: string } | { userId: string }) {
  const where = 'threadId' in owner ? eq(sources.threadId, owner.threadId) : eq(sources.userId, owner.userId)
  const rows = await deps.db.select({ fileKey: sources.fileKey }).from(sources).where(where)
  return rows.map((r) => r.fileKey)
}

/** A file that could not be deleted is tried again after this long. */
export const FILE_RETRY_MS = 10 * 60_000

/**
 * Deletes stored files of deleted sources, after the commit that deleted the rows. A failure is
 * logged, not thrown: the rows are gone and nothing points at the files any more; the key stays in
 * `deleted_files` (written by a trigger with the deletion) and the background job tries again.
 */
export async function removeFiles(deps: AppDeps, keys: string[]) {
  const removed: string[] = []
  for (const key of keys) {
    try {
      await deps.files.delete(key)
      removed.push(key)
    } catch (error) {
      deps.logger.warn('could not delete a source file; it is tried again later', { key, error })
      await deps.db
        .update(deletedFiles)
        .set({ dueAt: new Date(Date.now() + FILE_RETRY_MS) })
        .where(eq(deletedFiles.fileKey, key))
        .catch(() => {})
    }
  }
  // A key left behind only means the background job deletes an absent file once more.
  if (removed.length) {
    await deps.db
      .delete(deletedFiles)
      .where(inArray(deletedFiles.fileKey, removed))
      .catch((error) => deps.logger.warn('could not clear deleted source files; they are tried again later', { error }))
  }
}

/**
 * Removes the stored files of sources deleted in any way (also by cascade or in SQL, e.g. an
 * organisation removed by an operator) that are still in the store. Run by the background job.
 */
export async function sweepDeletedFiles(deps: AppDeps, { now = new Date(), limit = 100 } = {}) {
  const rows = await deps.db
    .select({ fileKey: deletedFiles.fileKey })
    .from(deletedFiles)
    .where(lte(deletedFiles.dueAt, now))
    .orderBy(asc(deletedFiles.dueAt))
    .limit(limit)
  await removeFiles(deps, rows.map((r) => r.fileKey))
  return rows.length
}

/** Whether the thread has a source ready to be searched (the source_query tool is offered then). */
export async function hasReadySources(deps: AppDeps, threadId: string) {
  return (await deps.db.$count(sources, and(eq(sources.threadId, threadId), eq(sources.status, 'ready')))) > 0
}
