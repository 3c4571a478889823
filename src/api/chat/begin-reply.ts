import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm'
import { messages, threads } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'

/** A streaming reply that has not written anything for this long was cut off (a server died). */
export const STALE_STREAM_MS = 60_000

export type BeginMode = { kind: 'send'; content: string; replaceLast: boolean } | { kind: 'regenerate' }

type MessageRow = typeof messages.$inferSelect

/**
 * Stores the user message (unless regenerating) and the assistant message that will stream,
 * in one transaction. The partial unique index on streaming messages makes a second send to
 * the same thread fail with REPLY_IN_PROGRESS, whichever server process it reaches.
 */
export async function beginReply(deps: AppDeps, threadId: string, mode: BeginMode, model: string) {
  const now = new Date()
  try {
    return await deps.db.transaction(async (tx) => {
      await tx
        .update(messages)
        .set({ status: 'stopped', updatedAt: now })
        .where(and(eq(messages.threadId, threadId), eq(messages.status, 'streaming'), lt(messages.updatedAt, new Date(now.getTime() - STALE_STREAM_MS))))
      const streaming = await tx.query.messages.findFirst({ where: and(eq(messages.threadId, threadId), eq(messages.status, 'streaming')) })
      if (streaming) throw new AppError('REPLY_IN_PROGRESS')

      let userMessage: MessageRow | undefined
      if (mode.kind === 'regenerate') {
        const last = await tx.query.messages.findFirst({ where: eq(messages.threadId, threadId), orderBy: desc(messages.seq) })
        if (!last || last.role !== 'assistant') throw new AppError('NOTHING_TO_REGENERATE')
        await tx.delete(messages).where(eq(messages.id, last.id))
      } else {
        if (mode.replaceLast) {
          const lastUser = await tx.query.messages.findFirst({
            where: and(eq(messages.threadId, threadId), eq(messages.role, 'user')),
            orderBy: desc(messages.seq),
          })
          if (lastUser) await tx.delete(messages).where(and(eq(messages.threadId, threadId), gte(messages.seq, lastUser.seq)))
        }
        ;[userMessage] = await tx
          .insert(messages)
          .values({ id: crypto.randomUUID(), threadId, seq: nextSeq(threadId), role: 'user', content: mode.content, status: 'complete', createdAt: now, updatedAt: now })
          .returning()
      }
      const [assistantMessage] = await tx
        .insert(messages)
        .values({ id: crypto.randomUUID(), threadId, seq: nextSeq(threadId), role: 'assistant', status: 'streaming', model, createdAt: now, updatedAt: now })
        .returning()
      await tx.update(threads).set({ lastMessageAt: now }).where(eq(threads.id, threadId))
      const history = await tx.select().from(messages).where(eq(messages.threadId, threadId)).orderBy(asc(messages.seq))
      return { userMessage, assistantMessage: assistantMessage!, history: history.filter((m) => m.id !== assistantMessage!.id) }
    })
  } catch (error) {
    if (error instanceof AppError) throw error
    if (String((error as { cause?: unknown }).cause ?? error).includes('UNIQUE')) fail('REPLY_IN_PROGRESS')
    throw error
  }
}

const nextSeq = (threadId: string) => sql`(SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE thread_id = ${threadId})`
