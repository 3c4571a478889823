import { and, eq, sql } from 'drizzle-orm'
import { messages } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { findOwnThread } from '../sources/access'
import { endAbandonedReplies, isStreaming } from './access'

/**
 * Shows a version of a message (docs/decisions/0060-reply-versions.md): the branch shown becomes
 * the message's ancestors, the message, and below it, at each step, the version shown last (else
 * the newest). The model reads that branch from then on, and a new message continues it. Refused
 * while a reply streams: its branch is the one being written.
 */
export async function showVersion(deps: AppDeps, caller: SessionUser, threadId: string, messageId: string) {
  await findOwnThread(deps, caller, threadId)
  const now = new Date()
  const [, target, streaming] = await deps.db.batch([
    endAbandonedReplies(deps, threadId, now),
    deps.db.select({ id: messages.id }).from(messages).where(and(eq(messages.id, messageId), eq(messages.threadId, threadId))),
    deps.db.select({ id: messages.id }).from(messages).where(and(eq(messages.threadId, threadId), isStreaming)),
  ])
  if (!target.length) fail('MESSAGE_NOT_FOUND')
  if (streaming.length) fail('REPLY_IN_PROGRESS')

  const up = sql`WITH RECURSIVE up(id, parent_id) AS (
      SELECT id, parent_id FROM messages WHERE id = ${messageId} AND thread_id = ${threadId}
      UNION ALL SELECT m.id, m.parent_id FROM messages m JOIN up ON m.id = up.parent_id WHERE m.thread_id = ${threadId}
    ) SELECT id FROM up`
  const down = sql`WITH RECURSIVE down(id) AS (
      SELECT ${messageId}
      UNION ALL SELECT (
        SELECT c.id FROM messages c WHERE c.thread_id = ${threadId} AND c.parent_id = down.id
        ORDER BY coalesce(c.shown_at, c.created_at) DESC, c.seq DESC LIMIT 1
      ) FROM down WHERE down.id IS NOT NULL
    ) SELECT id FROM down WHERE id IS NOT NULL`
  // A reply begun since the check above keeps the branch it began on: nothing changes then. A
  // streaming reply thus stays on the branch shown (src/api/chat/begin-reply.ts relies on it).
  const noReplyStreaming = sql`NOT EXISTS (SELECT 1 FROM messages s WHERE s.thread_id = ${threadId} AND s.status = 'streaming')`
  const onPath = sql`(${messages.id} IN (${up}) OR ${messages.id} IN (${down}))`
  await deps.db.batch([
    deps.db.update(messages).set({ shownAt: now }).where(and(sql`${messages.id} IN (${up})`, noReplyStreaming)),
    deps.db
      .update(messages)
      .set({ onBranch: sql`CASE WHEN ${onPath} THEN 1 ELSE 0 END` })
      .where(and(eq(messages.threadId, threadId), sql`${messages.onBranch} <> CASE WHEN ${onPath} THEN 1 ELSE 0 END`, noReplyStreaming)),
  ])
}
