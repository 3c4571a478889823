import type { QueryClient } from '@tanstack/react-query'
import { ApiError, isApiError } from '../../../lib/api-client'
import { SUBSCRIPTION_ACTIVE_KEY } from '../../../lib/subscription'
import { threadDetailKey, upsertThreadInList, type Message, type ThreadDetail } from '../api'
import type { BudgetNotice } from '../../../../src/api/chat/schema'
import { replyInCache, titleStoppedChat } from './reply-in-cache'
import { attachReply, requestStop, streamReply, type PositionedEvent, type ReplyEvent, type ReplyRequest } from './stream'
import { localMessage, versionsAfter, updateThread, withoutLastReply, withoutLastUserTurn } from './thread-cache'

// Replies this tab follows, by thread: its own sends, and replies it attached to (after a reload,
// or written for another tab). They belong to the tab, not to a component: leaving a chat while it
// streams keeps the reply coming into the cache, and React's double effects in development can
// neither start one twice nor abort one by unmounting.
type Following = { controller: AbortController; messageId: string | null; stopAsked: boolean; fetcher?: typeof fetch }
const active = new Map<string, Following>()
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((listener) => listener())

export const subscribeReplies = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
export const isReplying = (threadId: string) => active.has(threadId)

export type { BudgetNotice }
/** The last send's budget notice (80% or more of a monthly budget spent), or null. */
export const BUDGET_NOTICE_KEY = ['chat', 'budget-notice'] as const

/** How long to wait before attaching again after each failure in a row of a reply's stream; then it is given up. */
const RESUME_DELAYS_MS = [300, 1000, 3000]

/**
 * Stops the reply, wherever it runs: the server keeps what streamed, marks it stopped and ends
 * every stream of it (this one too). Before the server has named the reply, the stop waits for it.
 */
export function stopReply(threadId: string) {
  const following = active.get(threadId)
  if (!following || following.stopAsked) return
  following.stopAsked = true
  if (following.messageId !== null) askToStop(threadId, following)
}

function askToStop(threadId: string, following: Following) {
  // Not reachable: the page stops reading, and shows the reply stopped.
  requestStop(threadId, following.messageId!, following.fetcher).catch(() => following.controller.abort())
}

export type ReplyOutcome =
  | { ok: true }
  /** Refused before anything streamed (nothing changed on the server): the optimistic messages are rolled back. */
  | { ok: false; error: ApiError }

type RunOptions = {
  queryClient: QueryClient
  request: ReplyRequest
  /** Called once the server has stored the user message (its `message_start`). */
  onStarted?: () => void
  fetcher?: typeof fetch
}

/**
 * Sends a message (or regenerates the last reply) and streams the reply into the thread's query
 * cache: the user message and an empty streaming reply appear at once, deltas are applied once per
 * animation frame, the title goes to the sidebar list as soon as it arrives. A stream that breaks
 * off is attached again from where it was (see `follow`).
 */
export async function runReply({ queryClient, request, onStarted, fetcher }: RunOptions): Promise<ReplyOutcome> {
  const { threadId } = request
  if (active.has(threadId)) return { ok: false, error: new ApiError('REPLY_IN_PROGRESS', 'A reply is in progress', 409) }
  const following: Following = { controller: new AbortController(), messageId: null, stopAsked: false, fetcher }
  active.set(threadId, following)
  emit()

  const detailKey = threadDetailKey(threadId)
  // A refetch landing mid-stream would replace the text so far with the server's older copy. Only
  // the chat's own query: its files', collections' and shares' reads (keys below it) go on.
  await queryClient.cancelQueries({ queryKey: detailKey, exact: true })
  const before = queryClient.getQueryData<ThreadDetail>(detailKey)
  const userMessage = request.kind === 'send' ? localMessage('user', request.content, 'complete') : null
  const assistantId = localMessage('assistant', '', 'streaming').id
  const now = new Date().toISOString()
  updateThread(queryClient, threadId, (thread) => {
    const kept = request.kind === 'regenerate' ? withoutLastReply(thread.messages) : request.replaceLast ? withoutLastUserTurn(thread.messages) : thread.messages
    // What was replaced stays as an earlier version: the new message shows its place among them.
    const replaced = thread.messages[kept.length]
    const assistant: Message = { ...localMessage('assistant', '', 'streaming'), id: assistantId, model: thread.model?.modelId ?? null }
    if (request.kind === 'regenerate') assistant.siblingIds = versionsAfter(replaced, assistantId)
    const user = userMessage && (request.kind === 'send' && request.replaceLast ? { ...userMessage, siblingIds: versionsAfter(replaced, userMessage.id) } : userMessage)
    return { ...thread, lastMessageAt: now, messages: [...kept, ...(user ? [user] : []), assistant] }
  })
  const afterOptimistic = queryClient.getQueryData<ThreadDetail>(detailKey)
  if (afterOptimistic) upsertThreadInList(queryClient, summaryOf(afterOptimistic), true)

  const reply = replyInCache(queryClient, threadId, assistantId, userMessage?.id)
  const onStart = () => {
    // A budget's notice follows this event when 80% of it is spent; until then, none.
    queryClient.setQueryData(BUDGET_NOTICE_KEY, null)
    // A cloud trial counts the message: its notice shows one fewer left.
    if (request.kind === 'send') void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_ACTIVE_KEY })
    onStarted?.()
  }
  const apply = (e: ReplyEvent) => {
    if (e.event === 'budget_notice') queryClient.setQueryData(BUDGET_NOTICE_KEY, e.data)
    else reply.apply(e)
  }
  try {
    const ended = await follow(threadId, following, streamReply(request, following.controller.signal, fetcher), apply, undefined, onStart)
    if (!ended) lost(queryClient, threadId, reply)
    return { ok: true }
  } catch (error) {
    const started = following.messageId !== null
    if (following.controller.signal.aborted) {
      reply.setAssistant((m) => ({ status: m.status === 'streaming' ? 'stopped' : m.status }))
      // Stopped before the server confirmed: it may or may not have stored the message.
      if (!started) void queryClient.invalidateQueries({ queryKey: detailKey })
      else titleStoppedChat(queryClient, threadId)
      return { ok: true }
    }
    if (!started) {
      if (before) queryClient.setQueryData(detailKey, before)
      if (before) upsertThreadInList(queryClient, summaryOf(before), false)
      if (isApiError(error)) return { ok: false, error }
      // Not an HTTP answer: the network failed, so the message may not have reached the server.
      void queryClient.invalidateQueries({ queryKey: detailKey })
      return { ok: false, error: new ApiError('MESSAGE_NOT_SENT', String(error), 0) }
    }
    lost(queryClient, threadId, reply)
    return { ok: true }
  } finally {
    reply.flush()
    active.delete(threadId)
    emit()
  }
}

/**
 * Follows a reply the server is writing that this tab did not start (after a reload, or sent from
 * another tab or device): from what the cache shows of it, the rest streams in as it is written.
 */
export async function followReply({ queryClient, threadId, messageId, fetcher }: { queryClient: QueryClient; threadId: string; messageId: string; fetcher?: typeof fetch }) {
  if (active.has(threadId)) return
  const following: Following = { controller: new AbortController(), messageId, stopAsked: false, fetcher }
  active.set(threadId, following)
  emit()
  const reply = replyInCache(queryClient, threadId, messageId)
  try {
    await queryClient.cancelQueries({ queryKey: threadDetailKey(threadId), exact: true })
    const shown = queryClient.getQueryData<ThreadDetail>(threadDetailKey(threadId))?.messages.find((m) => m.id === messageId)
    if (!shown) return
    // Where the page is: the position its text, reasoning and tool parts make (the frames' ids).
    const from = `${shown.content.length}.${shown.reasoning.length}.${shown.parts.length}`
    const ended = await follow(threadId, following, attachReply(threadId, messageId, from, following.controller.signal, fetcher), reply.apply, from, () => {})
    if (!ended) lost(queryClient, threadId, reply)
  } catch {
    if (!following.controller.signal.aborted) lost(queryClient, threadId, reply)
  } finally {
    reply.flush()
    active.delete(threadId)
    emit()
  }
}

/**
 * Reads a reply's events until its end (true). A stream that breaks off after the reply started is
 * attached again from the last frame's position, after a pause that grows with each failure in a
 * row; after the last one, or when the server no longer has the reply, it is given up (false). A
 * stream the server stopped (`stream_stopped`: the tab left too much unread) is attached again at
 * once when it brought a new position.
 * Before the reply started, failures are thrown: nothing may have reached the server.
 */
async function follow(
  threadId: string,
  following: Following,
  first: AsyncGenerator<PositionedEvent>,
  apply: (e: ReplyEvent) => void,
  from: string | undefined,
  onStart: () => void,
): Promise<boolean> {
  const { signal } = following.controller
  let events = first
  let lastId = from
  let failures = 0
  for (;;) {
    // The server stopped this stream, not the reply (it waited unread): attached again at once
    // when it brought something new, else counted as a failure (a stop that repeats never ends).
    let stopped = false
    let progressed = false
    try {
      for await (const e of events) {
        if (e.event === 'stream_stopped') {
          stopped = true
          break
        }
        if (e.id !== undefined && e.id !== lastId) {
          lastId = e.id
          failures = 0
          progressed = true
        }
        const starts = e.event === 'message_start' && following.messageId === null
        apply(e)
        if (starts) {
          following.messageId = e.data.assistantMessageId
          onStart()
          if (following.stopAsked) askToStop(threadId, following)
        }
        if (e.event === 'message_end') return true
      }
    } catch (error) {
      if (signal.aborted || following.messageId === null) throw error
      if (isApiError(error)) return false
    }
    // Closed before the server named the reply: as a network failure, it may or may not have stored the message.
    if (following.messageId === null) throw new TypeError('The stream ended before the reply started')
    const delay = stopped && progressed ? 0 : RESUME_DELAYS_MS[failures++]
    if (delay === undefined) return false
    await new Promise((resolve) => setTimeout(resolve, delay))
    if (signal.aborted) throw new DOMException('Stopped', 'AbortError')
    events = attachReply(threadId, following.messageId, lastId, signal, following.fetcher)
  }
}

/** The reply's stream is gone without an end: shown interrupted until the server's copy says more. */
function lost(queryClient: QueryClient, threadId: string, reply: ReturnType<typeof replyInCache>) {
  reply.setAssistant((m) => ({ status: m.status === 'streaming' ? 'interrupted' : m.status }))
  void queryClient.invalidateQueries({ queryKey: threadDetailKey(threadId) })
}

const summaryOf = ({ id, title, modelId, agentId, createdAt, lastMessageAt, pinnedAt }: ThreadDetail) => ({ id, title, modelId, agentId, createdAt, lastMessageAt, pinnedAt })
