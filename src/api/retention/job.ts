import { and, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm'
import { organizations, sources, threads } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { runDaily } from '../../lib/daily-run'
import { recordAudit } from '../audit/access'
import { fileKeysByThread, removeFiles } from '../sources/access'

const DAY_MS = 24 * 60 * 60 * 1000
/** Rows deleted per statement: keeps each write short for the requests running beside the job. */
const BATCH = 200

export type RetentionResult = { organizationId: string; chats: number; files: number }

/**
 * Deletes what every organisation's retention lets expire at `now`: chats whose last message is
 * older than their period (with messages, sources, chunks, vectors, shares and stored files) and
 * uploaded files older than theirs. A chat whose reply is streaming stays. Each delete re-checks
 * its condition in the statement itself, so runs in several processes at once only share the work:
 * a row goes once and is counted once. One audit entry per organisation that lost something.
 */
export async function applyRetention(deps: AppDeps, now = Date.now()): Promise<RetentionResult[]> {
  const orgs = await deps.db
    .select({ id: organizations.id, chatDays: organizations.chatRetentionDays, fileDays: organizations.fileRetentionDays })
    .from(organizations)
    .where(or(isNotNull(organizations.chatRetentionDays), isNotNull(organizations.fileRetentionDays)))
  const run = `retention-${crypto.randomUUID()}`
  const results: RetentionResult[] = []
  for (const org of orgs) {
    const chats = org.chatDays ? await deleteExpiredChats(deps, org.id, new Date(now - org.chatDays * DAY_MS)) : { chats: 0, files: 0 }
    const files = org.fileDays ? await deleteExpiredFiles(deps, org.id, new Date(now - org.fileDays * DAY_MS)) : 0
    const result = { organizationId: org.id, chats: chats.chats, files: chats.files + files }
    if (!result.chats && !result.files) continue
    results.push(result)
    await recordAudit(deps, { organizationId: org.id }, { requestId: run, address: '' }, {
      action: 'retention.applied',
      target: { type: 'organization', id: org.id },
      details: { chats: result.chats, files: result.files, chatDays: org.chatDays ?? 'never', fileDays: org.fileDays ?? 'never' },
    })
  }
  return results
}

async function deleteExpiredChats(deps: AppDeps, organizationId: string, cutoff: Date) {
  const expired = and(
    eq(threads.organizationId, organizationId),
    lt(threads.lastMessageAt, cutoff),
    sql`NOT EXISTS (SELECT 1 FROM messages m WHERE m.thread_id = ${threads.id} AND m.status = 'streaming')`,
  )
  let chats = 0
  let files = 0
  for (;;) {
    const ids = (await deps.db.select({ id: threads.id }).from(threads).where(expired).limit(BATCH)).map((r) => r.id)
    if (!ids.length) return { chats, files }
    const keys = await fileKeysByThread(deps, ids)
    // A chat that became active or began a reply since it was read no longer matches and stays.
    const gone = new Set((await deps.db.delete(threads).where(and(inArray(threads.id, ids), expired)).returning({ id: threads.id })).map((r) => r.id))
    const removed = keys.filter((k) => k.threadId && gone.has(k.threadId)).map((k) => k.fileKey)
    await removeFiles(deps, removed)
    chats += gone.size
    files += removed.length
  }
}

async function deleteExpiredFiles(deps: AppDeps, organizationId: string, cutoff: Date) {
  const expired = and(eq(sources.organizationId, organizationId), lt(sources.createdAt, cutoff))
  let files = 0
  for (;;) {
    const ids = (await deps.db.select({ id: sources.id }).from(sources).where(expired).limit(BATCH)).map((r) => r.id)
    if (!ids.length) return files
    // Chunks, vectors and FTS rows go with the rows (cascade and triggers); the stored files after.
    const gone = await deps.db.delete(sources).where(and(inArray(sources.id, ids), expired)).returning({ fileKey: sources.fileKey })
    await removeFiles(deps, gone.map((r) => r.fileKey))
    files += gone.length
  }
}

/**
 * The daily run, asked for by every round of the background work (the Bun server's timer, from
 * its start; the Workers cron trigger); one run a day goes through, whichever process asks first.
 */
export async function retentionUpkeep(deps: AppDeps, now = Date.now()) {
  await runDaily(deps, 'retention:run', now, async () => {
    const results = await applyRetention(deps, now)
    if (results.length) deps.logger.info('expired chats and files deleted', { organizations: results.length })
  })
}
