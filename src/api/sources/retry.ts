import { and, eq, type SQL } from 'drizzle-orm'
import { sources } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { startProcessing } from './process'
import { findOwnThread, toSourceView } from './rows'

/**
 * Processes a failed file again: its stored file is kept until the file is removed, so a failure
 * that has passed (no embedding model then, a provider that was down) heals without a new upload.
 * It starts again from nothing (attempts, error) in the background; a file that is not failed is
 * left as it is. `scope` says where the caller may touch files (their chat, a collection they edit).
 */
export async function retryFailedSource(deps: AppDeps, id: string, scope: SQL, background: (job: Promise<unknown>) => void) {
  const [row] = await deps.db.select().from(sources).where(and(eq(sources.id, id), scope))
  if (!row) fail('SOURCE_NOT_FOUND')
  if (row.status !== 'failed') return toSourceView(row)
  const [again] = await deps.db
    .update(sources)
    .set({ status: 'processing', error: null, attempts: 0, lease: null, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(sources.id, id), eq(sources.status, 'failed')))
    .returning()
  if (!again) return toSourceView((await deps.db.query.sources.findFirst({ where: eq(sources.id, id) })) ?? fail('SOURCE_NOT_FOUND'))
  background(startProcessing(deps, again.id))
  return toSourceView(again)
}

/** Processes a failed file of the caller's chat again. */
export async function retryThreadSource(deps: AppDeps, caller: SessionUser, threadId: string, sourceId: string, background: (job: Promise<unknown>) => void) {
  await findOwnThread(deps, caller, threadId)
  return retryFailedSource(deps, sourceId, eq(sources.threadId, threadId), background)
}
