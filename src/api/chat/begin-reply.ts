import { and, asc, desc, eq, gte, sql } from 'drizzle-orm'
import { messages, threads } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { endAbandonedReplies, replyLease } from '../threads/access'

export type BeginMode = { kind: 'send'; content: string; replaceLast: boolean } | { kind: 'regenerate' }

type MessageRow = typeof messages.$inferSelect

/**
 * Stores the user message (unless regenerating) and the assistant message that will stream, all
 * or nothing. The partial unique index on streaming messages is the lock: a second send to the
 * same thread fails with REPLY_IN_PROGRESS, whichever server process it reaches, and its user
 * message is rolled back with it. A reply left streaming by a process that is gone is ended
 * `interrupted` first, so it holds the lock no longer; the new reply takes this process's lease.
 */
export async function beginReply(deps: AppDeps, threadId: string, mode: BeginMode, model: string) {
  const now = new Date()
  const assistantMessageId = crypto.randomUUID()
  try {
    const history =
      mode.kind === 'send'
        ? await beginSend(deps, threadId, mode, model, assistantMessageId, now)
        : await beginRegenerate(deps, threadId, model, assistantMessageId, now)
    const assistantMessage = history.find((m) => m.id === assistantMessageId)!
    const userMessage = mode.kind === 'send' ? history.findLast((m) => m.role === 'user') : undefined
    return { userMessage, assistantMessage, history: history.filter((m) => m !== assistantMessage) }
  } catch (error) {
    if (error instanceof AppError) throw error
    if (String((error as { cause?: unknown }).cause ?? error).includes('UNIQUE')) fail('REPLY_IN_PROGRESS')
    throw error
  }
}

/**
 * A send is one batch (one round trip, one commit, no interactive transaction): it needs no
 * answer from the database before it writes. An edit-and-resend deletes the last user message and
 * what followed it only while no reply streams; otherwise the insert of the streaming message
 * fails on the index and the whole batch is rolled back.
 */
async function beginSend(deps: AppDeps, threadId: string, mode: Extract<BeginMode, { kind: 'send' }>, model: string, assistantId: string, now: Date) {
  const { db } = deps
  const noReplyStreaming = sql`NOT EXISTS (SELECT 1 FROM messages WHERE thread_id = ${threadId} AND status = 'streaming')`
  const lastUserSeq = sql`(SELECT max(seq) FROM messages WHERE thread_id = ${threadId} AND role = 'user')`
  const replaceLast = db.delete(messages).where(and(eq(messages.threadId, threadId), gte(messages.seq, lastUserSeq), noReplyStreaming))
  const results = await db.batch([
    endAbandonedReplies(deps, threadId, now),
    ...(mode.replaceLast ? [replaceLast] : []),
    db.insert(messages).values({ id: crypto.randomUUID(), threadId, seq: nextSeq(threadId), role: 'user', content: mode.content, status: 'complete', createdAt: now, updatedAt: now }),
    db.insert(messages).values({ id: assistantId, threadId, seq: nextSeq(threadId), role: 'assistant', status: 'streaming', model, createdAt: now, updatedAt: now, ...replyLease(deps, now.getTime()) }),
    db.update(threads).set({ lastMessageAt: now }).where(eq(threads.id, threadId)),
    db.select().from(messages).where(eq(messages.threadId, threadId)).orderBy(asc(messages.seq)),
  ])
  return results.at(-1) as MessageRow[]
}

/** Regenerating must first see that the last message is a reply, so it keeps its transaction (it is rare). */
async function beginRegenerate(deps: AppDeps, threadId: string, model: string, assistantId: string, now: Date) {
  return deps.db.transaction(async (tx) => {
    await endAbandonedReplies(deps, threadId, now, tx)
    const last = await tx.query.messages.findFirst({ where: eq(messages.threadId, threadId), orderBy: desc(messages.seq) })
    if (last?.status === 'streaming') throw new AppError('REPLY_IN_PROGRESS')
    if (!last || last.role !== 'assistant') throw new AppError('NOTHING_TO_REGENERATE')
    await tx.delete(messages).where(eq(messages.id, last.id))
    await tx.insert(messages).values({ id: assistantId, threadId, seq: nextSeq(threadId), role: 'assistant', status: 'streaming', model, createdAt: now, updatedAt: now, ...replyLease(deps, now.getTime()) })
    await tx.update(threads).set({ lastMessageAt: now }).where(eq(threads.id, threadId))
    return tx.select().from(messages).where(eq(messages.threadId, threadId)).orderBy(asc(messages.seq))
  })
}

const nextSeq = (threadId: string) => sql`(SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE thread_id = ${threadId})`
