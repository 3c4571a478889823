import { and, eq, isNull } from 'drizzle-orm'
import { threads } from '../../../db/schema'
import type { ChatMessage, ChatProvider } from '../../ai'
import type { AppDeps } from '../../lib/context'
import { AppError } from '../../lib/errors'
import type { Tool, ToolContext } from '../../ai/tools/types'
import { startReplyWriter } from './reply-writer'
import { trackReply } from './running-replies'
import type { BudgetNotice } from './schema'
import { frameQueue, type ReplyEvent } from './sse'
import { titleFromMessage } from '../threads/schema'
import { generateTitle } from './title'
import { runToolLoop, type ReplyState } from './tool-loop'

export type ReplyRun = {
  deps: AppDeps
  provider: ChatProvider
  threadId: string
  assistantMessageId: string
  userMessageId: string | null
  model: { ref: string; name: string }
  messages: ChatMessage[]
  /** The tools offered in this chat, and what they may know of it. */
  tools: Tool[]
  toolContext: Omit<ToolContext, 'signal'>
  /** Set when the thread has no title yet: one is generated after the reply (taken from this message when it is stopped). */
  titleFrom?: string
  /** The request's signal: a closed tab aborts the provider call. */
  signal: AbortSignal
  /** At 80% of a budget: sent to the client before the reply (the tightest budget that applies). */
  budgetNotice?: BudgetNotice | null
  /** Called once the reply has ended, whichever way (the budget reservation ends). */
  onEnd?: () => Promise<void>
}

/**
 * What a client may leave unread before its reply is stopped: far more than a model's pace lets
 * pile up while a browser is busy, far less than a process can hold for each of many replies.
 */
export const MAX_UNREAD_BYTES = 1 << 20

/**
 * Streams one reply (with its tool calls, see tool-loop.ts) as SSE frames while writing it to the
 * database: the text so far every few hundred milliseconds, each tool call and result at once,
 * and at the end the status (complete, stopped, failed) and usage.
 */
export function streamReply(run: ReplyRun): ReadableStream<Uint8Array> {
  const abort = new AbortController()
  const onRequestAbort = () => abort.abort(run.signal.reason)
  run.signal.addEventListener('abort', onRequestAbort)
  let closed = false

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const frames = frameQueue((bytes) => {
        if (closed) return
        try {
          controller.enqueue(bytes)
        } catch {
          closed = true
          return
        }
        // A client that stops reading (or reads far slower than the model writes) ends the reply
        // as stopped, like one that leaves, rather than having it held in memory.
        if ((controller.desiredSize ?? 0) < -MAX_UNREAD_BYTES && !abort.signal.aborted) {
          run.deps.logger.warn('client does not read its reply, stopping it', { messageId: run.assistantMessageId })
          abort.abort(new DOMException('The client does not read the reply', 'AbortError'))
        }
      })
      const send = (e: ReplyEvent) => {
        if (!closed) frames.push(e)
      }
      try {
        await trackReply(abort, runReply(run, abort.signal, send, frames.flush))
      } finally {
        await run.onEnd?.()
        run.signal.removeEventListener('abort', onRequestAbort)
        frames.flush()
        if (!closed) {
          closed = true
          controller.close()
        }
      }
    },
    cancel(reason) {
      closed = true
      abort.abort(reason ?? new DOMException('The client closed the stream', 'AbortError'))
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: 16 * 1024 }))
}

async function runReply(run: ReplyRun, signal: AbortSignal, send: (e: ReplyEvent) => void, flush: () => void) {
  const { deps, assistantMessageId } = run
  const state: ReplyState = { content: '', reasoning: '', parts: [], inputTokens: null, outputTokens: null }
  const writer = startReplyWriter(deps, assistantMessageId, state)

  send({ event: 'message_start', data: { threadId: run.threadId, userMessageId: run.userMessageId, assistantMessageId, model: run.model.ref } })
  if (run.budgetNotice) send({ event: 'budget_notice', data: run.budgetNotice })
  try {
    await runToolLoop({
      provider: run.provider,
      model: run.model.name,
      messages: run.messages,
      tools: run.tools,
      toolContext: { ...run.toolContext, signal },
      state,
      send,
      flush,
      changed: writer.changed,
      checkpoint: writer.checkpoint,
    })
    await writer.finish({ status: 'complete' })
    if (run.titleFrom !== undefined) {
      const title = await generateTitle(run.provider, run.model.name, { user: run.titleFrom, assistant: state.content })
      await giveFirstTitle(run, title, send)
    }
    send({ event: 'message_end', data: { status: 'complete' } })
  } catch (error) {
    if (signal.aborted) {
      // Stopped by the user or a closed tab: keep what streamed.
      await writer.finish({ status: 'stopped' }).catch((e) => deps.logger.error('could not mark a reply stopped', { error: e }))
      // The chat still gets a title, from the user's message: asking the model would keep going after a stop.
      if (run.titleFrom !== undefined) await giveFirstTitle(run, titleFromMessage(run.titleFrom), send).catch((e) => deps.logger.error('could not title a chat', { error: e }))
      send({ event: 'message_end', data: { status: 'stopped' } })
      return
    }
    const appError = error instanceof AppError ? error : new AppError('PROVIDER_UNAVAILABLE')
    deps.logger.warn('reply failed', { threadId: run.threadId, code: appError.code, detail: (error as { detail?: unknown }).detail, error })
    await writer.finish({ status: 'failed', errorCode: appError.code }).catch((e) => deps.logger.error('could not mark a reply failed', { error: e }))
    send({ event: 'error', data: { code: appError.code, message: appError.message } })
    send({ event: 'message_end', data: { status: 'failed' } })
  } finally {
    writer.close()
  }
}

/** Gives the chat its first title, unless the user named it while the reply was written. */
async function giveFirstTitle(run: ReplyRun, title: string, send: (e: ReplyEvent) => void) {
  const named = await run.deps.db
    .update(threads)
    .set({ title })
    .where(and(eq(threads.id, run.threadId), isNull(threads.title)))
    .returning({ id: threads.id })
  if (named.length > 0) send({ event: 'title', data: { title } })
}
