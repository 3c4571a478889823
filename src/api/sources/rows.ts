import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { preparedFor } from '../../../db/client'
import { deletedFiles, sources, threads } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import type { SourceView } from './schema'

/** Rows of sources as the domain's verbs and other domains read them (re-exported by access.ts). */

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
 * The caller's own thread; anyone else's (even in the same organisation) is not found. It lives
 * here, the lower of the two domains, because sources check it for every thread-scoped verb;
 * threads and chat import it from here.
 */
export async function findOwnThread(deps: AppDeps, caller: SessionUser, id: string) {
  const thread = await ownThread(deps.db).get({ id, userId: caller.id })
  return thread ?? fail('THREAD_NOT_FOUND')
}

/**
 * Which thread is the caller's own (values: id, userId): the one rule every read of a thread for
 * its owner goes by (findOwnThread; a reply's context reads the thread with more in one statement).
 */
export const ownThreadWhere = () => and(eq(threads.id, sql.placeholder('id')), eq(threads.userId, sql.placeholder('userId')))

// Read with most requests about a thread and its files: prepared once (db/client.ts).
const ownThread = preparedFor((db) => db.select().from(threads).where(ownThreadWhere()).prepare())
const threadSources = preparedFor((db) =>
  db.select().from(sources).where(eq(sources.threadId, sql.placeholder('threadId'))).orderBy(asc(sources.createdAt), asc(sources.id)).prepare(),
)

/** Sources of a thread, oldest first (no ownership check: callers have done it). */
export async function sourcesOfThread(deps: AppDeps, threadId: string) {
  const rows = await threadSources(deps.db).all({ threadId })
  return rows.map(toSourceView)
}

/** File keys of some threads' or a user's sources, read before the threads or user (and so the sources) are deleted. */
export async function fileKeysOf(deps: AppDeps, owner: { threadIds: string[] } | { userId: string }) {
  const where = 'threadIds' in owner ? inArray(sources.threadId, owner.threadIds) : eq(sources.userId, owner.userId)
  const rows = await deps.db.select({ fileKey: sources.fileKey }).from(sources).where(where)
  return rows.map((r) => r.fileKey)
}

/** The file keys of some threads' sources with their thread, read before threads that may not all be deleted go. */
export async function fileKeysByThread(deps: AppDeps, threadIds: string[]) {
  if (!threadIds.length) return []
  return deps.db.select({ threadId: sources.threadId, fileKey: sources.fileKey }).from(sources).where(inArray(sources.threadId, threadIds))
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
