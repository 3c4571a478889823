import { and, eq, isNull } from 'drizzle-orm'
import { threads } from '../../../db/schema'
import type { ChatMessage, ChatProvider } from '../../ai'
import type { AppDeps } from '../../lib/context'
import { AppError } from '../../lib/errors'
import type { Tool, ToolContext } from '../../ai/tools/types'
import { startReplyWriter } from './reply-writer'
import { LiveReply, liveReplies } from './reply-relay'
import { trackReply } from './running-replies'
import type { BudgetNotice } from './schema'
import { REPLY_START, type ReplyEvent } from './sse'
import { titleFromMessage } from '../threads/schema'
import { generateTitle } from './title'
import { runToolLoop, type EarlyCall, type ReplyState } from './tool-loop'

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
  /** At 80% of a budget: sent to the client before the reply (the tightest budget that applies). */
  budgetNotice?: BudgetNotice | null
  /** Called once the reply has ended, whichever way (the budget reservation ends). */
  onEnd?: () => Promise<void>
  /** Stops the reply; given when the first model call was started before it (`firstCall`, with this signal). */
  abort?: AbortController
  firstCall?: EarlyCall
}

/**
 * Starts one reply (with its tool calls, see tool-loop.ts) and answers with its stream of SSE
 * frames, while writing it to the database: the text so far every few hundred milliseconds, each
 * tool call and result at once, and at the end the status (complete, stopped, failed) and usage.
 * The reply runs apart from the request that started it: a client that leaves (a reload, a lost
 * connection) leaves it running, and attaches again (attach.ts). Only Stop (stop.ts), a shutdown
 * or an error end it.
 */
export function streamReply(run: ReplyRun): ReadableStream<Uint8Array> {
  const state: ReplyState = { content: '', reasoning: '', parts: [], inputTokens: null, outputTokens: null }
  const start = { threadId: run.threadId, userMessageId: run.userMessageId, assistantMessageId: run.assistantMessageId, model: run.model.ref }
  const live = new LiveReply(start, state, run.abort ?? new AbortController(), run.deps.writesTogether)
  const running = liveReplies(run.deps)
  running.set(run.assistantMessageId, live)
  const body = live.follow(run.deps, REPLY_START)
  const logged = (error: unknown) => run.deps.logger.error('a reply ended unexpectedly', { error })
  void (async () => {
    await trackReply(live.abort, runReply(run, live)).catch(logged)
    running.delete(run.assistantMessageId)
    await run.onEnd?.().catch(logged)
    live.end()
  })()
  return body
}

async function runReply(run: ReplyRun, live: LiveReply) {
  const { deps, assistantMessageId } = run
  const { state, send, flush } = live
  const signal = live.abort.signal
  // Stop pressed in a tab served by another process reaches this one through the database.
  const writer = startReplyWriter(deps, assistantMessageId, state, () => live.abort.abort(new DOMException('Stopped', 'AbortError')))

  send({ event: 'message_start', data: live.start })
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
      firstCall: run.firstCall,
    })
    // The title before the reply's end, so that whoever sees the end (another process too) finds it.
    if (run.titleFrom !== undefined) {
      const title = await generateTitle(run.provider, run.model.name, { user: run.titleFrom, assistant: state.content }, signal)
      await giveFirstTitle(run, title, send)
    }
    await writer.finish({ status: 'complete' })
    send({ event: 'message_end', data: { status: 'complete' } })
  } catch (error) {
    if (signal.aborted) {
      // Stopped by the user (from any tab) or a shutdown: keep what streamed. The chat still gets a
      // title, from the user's message (asking the model would keep going after a stop), before the end.
      if (run.titleFrom !== undefined) await giveFirstTitle(run, titleFromMessage(run.titleFrom), send).catch((e) => deps.logger.error('could not title a chat', { error: e }))
      await writer.finish({ status: 'stopped' }).catch((e) => deps.logger.error('could not mark a reply stopped', { error: e }))
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
