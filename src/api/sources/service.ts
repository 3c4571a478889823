import { and, asc, eq, lte } from 'drizzle-orm'
import { deletedFiles, sources } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { findOwnThread, removeFiles, sourcesOfThread, toSourceView } from './rows'

/** The files of the caller's own thread, with their processing status (the web app polls this). */
export async function listSources(deps: AppDeps, caller: SessionUser, threadId: string) {
  await findOwnThread(deps, caller, threadId)
  return sourcesOfThread(deps, threadId)
}

/** Gives a file of the caller's own chat a name or description (the model is told both). */
export async function updateSource(deps: AppDeps, caller: SessionUser, threadId: string, sourceId: string, change: { name?: string; description?: string | null }) {
  await findOwnThread(deps, caller, threadId)
  const where = and(eq(sources.id, sourceId), eq(sources.threadId, threadId))
  const [row] = Object.keys(change).length
    ? await deps.db.update(sources).set(change).where(where).returning()
    : await deps.db.select().from(sources).where(where)
  if (!row) fail('SOURCE_NOT_FOUND')
  return toSourceView(row)
}

/** Removes a source: its row, with it (by cascade and trigger) its chunks and their FTS rows, then its file. */
export async function deleteSource(deps: AppDeps, caller: SessionUser, threadId: string, sourceId: string) {
  await findOwnThread(deps, caller, threadId)
  const [row] = await deps.db
    .delete(sources)
    .where(and(eq(sources.id, sourceId), eq(sources.threadId, threadId)))
    .returning({ fileKey: sources.fileKey })
  if (!row) fail('SOURCE_NOT_FOUND')
  await removeFiles(deps, [row.fileKey])
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
