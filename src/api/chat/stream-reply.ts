import { eq } from 'drizzle-orm'
import { messages, threads } from '../../../db/schema'
import type { ChatMessage, ChatProvider } from '../../ai'
import type { AppDeps } from '../../lib/context'
import { AppError } from '../../lib/errors'
import type { Tool, ToolContext } from '../../tools/types'
import { sseFrame, type ReplyEvent } from './sse'
import { generateTitle } from './title'
import { runToolLoop, type ReplyState } from './tool-loop'

/** How often the text so far is written to the database while a reply streams. */
const PERSIST_EVERY_MS = 300
/** Written even without new text, so other processes can tell a live reply from a dead one. */
const HEARTBEAT_MS = 10_000

/** Replies streaming in this process, so that a shutdown can stop them cleanly. */
const running = new Set<{ abort: AbortController; done: Promise<void> }>()

/** Stops every reply still streaming in this process (kept as `stopped`) and waits until they are written. */
export async function stopRunningReplies(reason = 'The server is shutting down') {
  const replies = [...running]
  for (const r of replies) r.abort.abort(new DOMException(reason, 'AbortError'))
  await Promise.allSettled(replies.map((r) => r.done))
}

/** Resolves when no reply streams any more, or after `ms`. */
export async function repliesFinished(ms: number) {
  const deadline = Date.now() + ms
  while (running.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  return running.size === 0
}

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
  /** Set when the thread has no title yet: one is generated after the reply. */
  titleFrom?: string
  /** The request's signal: a closed tab aborts the provider call. */
  signal: AbortSignal
}

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
      const send = (e: ReplyEvent) => {
        if (closed) return
        try {
          controller.enqueue(sseFrame(e))
        } catch {
          closed = true
        }
      }
      const done = runReply(run, abort.signal, send)
      const entry = { abort, done }
      running.add(entry)
      try {
        await done
      } finally {
        running.delete(entry)
        run.signal.removeEventListener('abort', onRequestAbort)
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
  })
}

async function runReply(run: ReplyRun, signal: AbortSignal, send: (e: ReplyEvent) => void) {
  const { deps, assistantMessageId } = run
  const state: ReplyState = { content: '', reasoning: '', parts: [], inputTokens: null, outputTokens: null }
  let lastWrite = Date.now()
  const persist = async (extra: Partial<typeof messages.$inferInsert> = {}) => {
    lastWrite = Date.now()
    const { content, reasoning, parts, inputTokens, outputTokens } = state
    await deps.db
      .update(messages)
      .set({ content, reasoning, parts, inputTokens, outputTokens, updatedAt: new Date(), ...extra })
      .where(eq(messages.id, assistantMessageId))
  }
  const heartbeat = setInterval(() => {
    if (Date.now() - lastWrite >= HEARTBEAT_MS) void persist().catch(() => {})
  }, HEARTBEAT_MS)

  send({ event: 'message_start', data: { threadId: run.threadId, userMessageId: run.userMessageId, assistantMessageId, model: run.model.ref } })
  try {
    await runToolLoop({
      provider: run.provider,
      model: run.model.name,
      messages: run.messages,
      tools: run.tools,
      toolContext: { ...run.toolContext, signal },
      state,
      send,
      checkpoint: async (force) => {
        if (force || Date.now() - lastWrite >= PERSIST_EVERY_MS) await persist()
      },
    })
    await persist({ status: 'complete' })
    if (run.titleFrom !== undefined) {
      const title = await generateTitle(run.provider, run.model.name, { user: run.titleFrom, assistant: state.content })
      await deps.db.update(threads).set({ title }).where(eq(threads.id, run.threadId))
      send({ event: 'title', data: { title } })
    }
    send({ event: 'message_end', data: { status: 'complete' } })
  } catch (error) {
    if (signal.aborted) {
      // Stopped by the user or a closed tab: keep what streamed.
      await persist({ status: 'stopped' }).catch((e) => deps.logger.error('could not mark a reply stopped', { error: e }))
      send({ event: 'message_end', data: { status: 'stopped' } })
      return
    }
    const appError = error instanceof AppError ? error : new AppError('PROVIDER_UNAVAILABLE')
    deps.logger.warn('reply failed', { threadId: run.threadId, code: appError.code, detail: (error as { detail?: unknown }).detail, error })
    await persist({ status: 'failed', errorCode: appError.code }).catch((e) => deps.logger.error('could not mark a reply failed', { error: e }))
    send({ event: 'error', data: { code: appError.code, message: appError.message } })
    send({ event: 'message_end', data: { status: 'failed' } })
  } finally {
    clearInterval(heartbeat)
  }
}
