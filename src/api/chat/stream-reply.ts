import { eq } from 'drizzle-orm'
import { messages, threads } from '../../../db/schema'
import type { ChatMessage, ChatProvider } from '../../ai'
import type { AppDeps } from '../../lib/context'
import { AppError } from '../../lib/errors'
import type { Tool, ToolContext } from '../../tools/types'
import { frameQueue, type ReplyEvent } from './sse'
import { generateTitle } from './title'
import { runToolLoop, type ReplyState } from './tool-loop'

/** How often the text so far is written to the database while a reply streams. */
const PERSIST_EVERY_MS = 300
/** Written even without new text, so other processes can tell a live reply from a dead one. */
const HEARTBEAT_MS = 10_000

/** A reply streaming in this process, as the database should come to know it. */
type LiveReply = { id: string; state: ReplyState; changed: boolean; lastWrite: number; writing: boolean }

/**
 * The replies streaming in this process to one database. Their text so far is written together:
 * whichever reply's timer comes first writes every reply that changed, in one batch (one commit,
 * one round trip), so many streams cost a few writes a second rather than a few per stream.
 */
class LiveReplies {
  private readonly replies = new Set<LiveReply>()
  private lastBatch = 0
  private batch: Promise<void> | undefined

  constructor(private readonly deps: AppDeps) {}

  add(reply: LiveReply) {
    this.replies.add(reply)
  }

  delete(reply: LiveReply) {
    this.replies.delete(reply)
  }

  /**
   * Writes the changed replies unless a batch is being written or was written within half the
   * interval (each reply's own timer comes every interval, so none waits much longer than that).
   */
  writeChanged() {
    const now = Date.now()
    if (this.batch || now - this.lastBatch < PERSIST_EVERY_MS / 2) return
    const due = [...this.replies].filter((r) => r.changed && !r.writing)
    if (!due.length) return
    this.lastBatch = now
    const at = new Date(now)
    const updates = due.map((r) => {
      r.changed = false
      r.lastWrite = now
      return this.deps.db.update(messages).set({ ...columnsOf(r.state), updatedAt: at }).where(eq(messages.id, r.id))
    })
    this.batch = this.deps.db
      .batch(updates as [(typeof updates)[number], ...typeof updates])
      .then(
        () => undefined,
        (error: unknown) => {
          for (const r of due) r.changed = true
          this.deps.logger.warn('could not write streaming replies', { error })
        },
      )
      .finally(() => (this.batch = undefined))
  }

  /** Waits for a batch being written, so that a later write of one reply cannot be overtaken by it. */
  settled() {
    return this.batch ?? Promise.resolve()
  }
}

const liveReplies = new WeakMap<AppDeps, LiveReplies>()
const liveRepliesOf = (deps: AppDeps) => liveReplies.get(deps) ?? liveReplies.set(deps, new LiveReplies(deps)).get(deps)!

const columnsOf = ({ content, reasoning, parts, inputTokens, outputTokens }: ReplyState) => ({ content, reasoning, parts, inputTokens, outputTokens })

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
      const frames = frameQueue((bytes) => {
        if (closed) return
        try {
          controller.enqueue(bytes)
        } catch {
          closed = true
        }
      })
      const send = (e: ReplyEvent) => {
        if (!closed) frames.push(e)
      }
      const done = runReply(run, abort.signal, send)
      const entry = { abort, done }
      running.add(entry)
      try {
        await done
      } finally {
        running.delete(entry)
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
  })
}

async function runReply(run: ReplyRun, signal: AbortSignal, send: (e: ReplyEvent) => void) {
  const { deps, assistantMessageId } = run
  const state: ReplyState = { content: '', reasoning: '', parts: [], inputTokens: null, outputTokens: null }
  const live = liveRepliesOf(deps)
  const reply: LiveReply = { id: assistantMessageId, state, changed: false, lastWrite: Date.now(), writing: false }
  live.add(reply)
  /** Writes this reply now, after any batch in flight (`extra`: its final status). */
  const persist = async (extra: Partial<typeof messages.$inferInsert> = {}) => {
    reply.writing = true
    try {
      await live.settled()
      reply.changed = false
      reply.lastWrite = Date.now()
      await deps.db
        .update(messages)
        .set({ ...columnsOf(state), updatedAt: new Date(), ...extra })
        .where(eq(messages.id, assistantMessageId))
    } finally {
      reply.writing = false
    }
  }
  const timer = setInterval(() => {
    if (reply.changed) live.writeChanged()
    else if (Date.now() - reply.lastWrite >= HEARTBEAT_MS && !reply.writing) void persist().catch(() => {})
  }, PERSIST_EVERY_MS)
  /** The last write: out of the batches first, so that none can overwrite it. */
  const finish = (extra: Partial<typeof messages.$inferInsert>) => {
    clearInterval(timer)
    live.delete(reply)
    return persist(extra)
  }

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
      changed: () => void (reply.changed = true),
      checkpoint: () => persist(),
    })
    await finish({ status: 'complete' })
    if (run.titleFrom !== undefined) {
      const title = await generateTitle(run.provider, run.model.name, { user: run.titleFrom, assistant: state.content })
      await deps.db.update(threads).set({ title }).where(eq(threads.id, run.threadId))
      send({ event: 'title', data: { title } })
    }
    send({ event: 'message_end', data: { status: 'complete' } })
  } catch (error) {
    if (signal.aborted) {
      // Stopped by the user or a closed tab: keep what streamed.
      await finish({ status: 'stopped' }).catch((e) => deps.logger.error('could not mark a reply stopped', { error: e }))
      send({ event: 'message_end', data: { status: 'stopped' } })
      return
    }
    const appError = error instanceof AppError ? error : new AppError('PROVIDER_UNAVAILABLE')
    deps.logger.warn('reply failed', { threadId: run.threadId, code: appError.code, detail: (error as { detail?: unknown }).detail, error })
    await finish({ status: 'failed', errorCode: appError.code }).catch((e) => deps.logger.error('could not mark a reply failed', { error: e }))
    send({ event: 'error', data: { code: appError.code, message: appError.message } })
    send({ event: 'message_end', data: { status: 'failed' } })
  } finally {
    clearInterval(timer)
    live.delete(reply)
  }
}
