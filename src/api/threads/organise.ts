import { recordAudit, type AuditFrom } from '../audit/access'
import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm'
import { threads } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { fileKeysOf, findOwnThread, removeFiles } from '../sources/access'
import { MAX_PINNED_THREADS } from './limits'
import { toThreadSummary } from './service'

/**
 * Renames a chat, pins or unpins it. A pin keeps its time when the chat is pinned again. The
 * limit on pins is part of the update itself, so two pins at once cannot pass it together.
 */
export async function updateThread(deps: AppDeps, caller: SessionUser, id: string, change: { title?: string; pinned?: boolean }) {
  await findOwnThread(deps, caller, id)
  const pinnedAt = change.pinned === undefined ? undefined : change.pinned ? sql`coalesce(${threads.pinnedAt}, ${Date.now()})` : null
  const pinnedCount = sql`(SELECT count(*) FROM threads WHERE user_id = ${caller.id} AND pinned_at IS NOT NULL)`
  const [row] = await deps.db
    .update(threads)
    .set({ title: change.title, pinnedAt })
    .where(
      and(
        eq(threads.id, id),
        eq(threads.userId, caller.id),
        change.pinned ? or(isNotNull(threads.pinnedAt), sql`${pinnedCount} < ${MAX_PINNED_THREADS}`) : undefined,
      ),
    )
    .returning()
  return row ? toThreadSummary(row) : fail('TOO_MANY_PINNED')
}

/** Deletes several of the caller's chats at once; when one of them is not the caller's, none. */
export async function deleteThreads(deps: AppDeps, caller: SessionUser, ids: string[], from: AuditFrom) {
  const unique = [...new Set(ids)]
  const own = and(inArray(threads.id, unique), eq(threads.userId, caller.id))
  if ((await deps.db.$count(threads, own)) !== unique.length) fail('THREAD_NOT_FOUND')
  const files = await fileKeysOf(deps, { threadIds: unique })
  // Sources, chunks and their FTS rows go with the threads (cascade); stored files are removed after.
  await deps.db.delete(threads).where(own)
  await recordAudit(deps, caller, from, { action: 'chats.deleted', target: { type: 'user', id: caller.id, label: caller.email }, details: { count: unique.length, ids: unique } })
  await removeFiles(deps, files)
}

const DELETE_ALL_BATCH = 200

/**
 * Deletes every chat of the caller's (in their organisation) with its messages, files, passages
 * and shared links, a batch at a time; other members' chats stay. A chat started meanwhile may stay.
 */
export async function deleteAllThreads(deps: AppDeps, caller: SessionUser, from: AuditFrom) {
  const own = and(eq(threads.userId, caller.id), eq(threads.organizationId, caller.organizationId))
  let count = 0
  for (;;) {
    const ids = (await deps.db.select({ id: threads.id }).from(threads).where(own).limit(DELETE_ALL_BATCH)).map((r) => r.id)
    if (!ids.length) break
    const files = await fileKeysOf(deps, { threadIds: ids })
    count += (await deps.db.delete(threads).where(and(own, inArray(threads.id, ids)))).rowsAffected
    await removeFiles(deps, files)
  }
  await recordAudit(deps, caller, from, { action: 'chats.deleted', target: { type: 'user', id: caller.id, label: caller.email }, details: { count, all: true } })
}
