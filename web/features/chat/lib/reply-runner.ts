import type { QueryClient } from '@tanstack/react-query'
import { titleFromMessage } from '../../../../src/api/threads/limits'
import { ApiError, isApiError } from '../../../lib/api-client'
import { SUBSCRIPTION_ACTIVE_KEY } from '../../../lib/subscription'
import { patchThreadInList, threadDetailKey, upsertThreadInList, type Message, type ThreadDetail } from '../api'
import type { BudgetNotice } from '../../../../src/api/chat/schema'
import { streamReply, type ReplyRequest } from './stream'
import { localMessage, updateMessage, versionsAfter, updateThread, withoutLastReply, withoutLastUserTurn, type ToolPart } from './thread-cache'

// Replies in flight in this tab, by thread. They belong to the tab, not to a component: leaving
// a chat while it streams keeps the reply coming into the cache, and React's double effects in
// development can neither start one twice nor abort one by unmounting.
const active = new Map<string, AbortController>()
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

/** Stops the reply: the fetch is aborted, the server keeps what streamed and marks it stopped. */
export function stopReply(threadId: string) {
  active.get(threadId)?.abort()
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
 * animation frame, the title goes to the sidebar list as soon as it arrives.
 */
export async function runReply({ queryClient, request, onStarted, fetcher }: RunOptions): Promise<ReplyOutcome> {
  const { threadId } = request
  if (active.has(threadId)) return { ok: false, error: new ApiError('REPLY_IN_PROGRESS', 'A reply is in progress', 409) }
  const controller = new AbortController()
  active.set(threadId, controller)
  emit()

  const detailKey = threadDetailKey(threadId)
  // A refetch landing mid-stream would replace the text so far with the server's older copy. Only
  // the chat's own query: its files', collections' and shares' reads (keys below it) go on.
  await queryClient.cancelQueries({ queryKey: detailKey, exact: true })
  const before = queryClient.getQueryData<ThreadDetail>(detailKey)
  const userMessage = request.kind === 'send' ? localMessage('user', request.content, 'complete') : null
  let assistantId = localMessage('assistant', '', 'streaming').id
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

  // Deltas arrive far more often than the screen refreshes: collect them, apply once a frame.
  const pending = { text: '', reasoning: '' }
  let frame: (() => void) | null = null
  const flush = () => {
    frame?.()
    frame = null
    if (!pending.text && !pending.reasoning) return
    const { text, reasoning } = pending
    pending.text = ''
    pending.reasoning = ''
    updateMessage(queryClient, threadId, assistantId, (m) => ({ ...m, content: m.content + text, reasoning: m.reasoning + reasoning }))
  }
  const schedule = () => {
    if (frame === null) frame = requestFrame(flush)
  }
  const setAssistant = (patch: Partial<Message> | ((m: Message) => Partial<Message>)) => {
    flush()
    updateMessage(queryClient, threadId, assistantId, (m) => ({ ...m, ...(typeof patch === 'function' ? patch(m) : patch) }))
  }

  let started = false
  let ended = false
  try {
    for await (const e of streamReply(request, controller.signal, fetcher)) {
      switch (e.event) {
        case 'message_start': {
          started = true
          const { userMessageId, assistantMessageId, model } = e.data
          updateThread(queryClient, threadId, (thread) => ({
            ...thread,
            messages: thread.messages.map((m) => {
              const confirmed = m.id === userMessage?.id && userMessageId ? { ...m, id: userMessageId } : m.id === assistantId ? { ...m, id: assistantMessageId, model } : m
              return confirmed === m ? m : { ...confirmed, siblingIds: confirmed.siblingIds.map((id) => (id === m.id ? confirmed.id : id)) }
            }),
          }))
          assistantId = assistantMessageId
          // A budget's notice follows this event when 80% of it is spent; until then, none.
          queryClient.setQueryData(BUDGET_NOTICE_KEY, null)
          // A cloud trial counts the message: its notice shows one fewer left.
          if (request.kind === 'send') void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_ACTIVE_KEY })
          onStarted?.()
          break
        }
        case 'budget_notice':
          queryClient.setQueryData(BUDGET_NOTICE_KEY, e.data)
          break
        case 'text':
          pending.text += e.data.delta
          schedule()
          break
        case 'reasoning':
          pending.reasoning += e.data.delta
          schedule()
          break
        case 'tool_call':
        case 'tool_result': {
          setAssistant((m) => {
            const part: ToolPart = e.event === 'tool_call' ? { type: 'tool_call', ...e.data, offset: m.content.length } : { type: 'tool_result', ...e.data }
            return { parts: [...m.parts, part] }
          })
          break
        }
        case 'usage':
          setAssistant({ usage: e.data })
          break
        case 'title':
          setTitle(queryClient, threadId, e.data.title)
          break
        case 'error':
          setAssistant({ errorCode: e.data.code })
          break
        case 'message_end':
          ended = true
          setAssistant({ status: e.data.status })
          break
      }
    }
    if (!ended) {
      // The connection closed without an end: the server went away mid-reply (or only the
      // connection broke, and the server keeps the reply as stopped); read what it has.
      setAssistant({ status: 'interrupted' })
      void queryClient.invalidateQueries({ queryKey: detailKey })
    }
    return { ok: true }
  } catch (error) {
    if (controller.signal.aborted) {
      setAssistant((m) => ({ status: m.status === 'streaming' ? 'stopped' : m.status }))
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
    // The stream broke off, not by the user's hand: as above.
    setAssistant((m) => ({ status: m.status === 'streaming' ? 'interrupted' : m.status }))
    void queryClient.invalidateQueries({ queryKey: detailKey })
    return { ok: true }
  } finally {
    flush()
    active.delete(threadId)
    emit()
  }
}

const summaryOf = ({ id, title, modelId, agentId, createdAt, lastMessageAt, pinnedAt }: ThreadDetail) => ({ id, title, modelId, agentId, createdAt, lastMessageAt, pinnedAt })

function setTitle(queryClient: QueryClient, threadId: string, title: string) {
  updateThread(queryClient, threadId, (thread) => ({ ...thread, title }))
  patchThreadInList(queryClient, threadId, { title })
}

/**
 * A chat whose first reply was stopped is titled by the server from its first message; the stop
 * closed the stream before that title could arrive, so the same title is shown here at once.
 */
function titleStoppedChat(queryClient: QueryClient, threadId: string) {
  const thread = queryClient.getQueryData<ThreadDetail>(threadDetailKey(threadId))
  const first = thread?.messages.find((m) => m.role === 'user')
  if (thread && thread.title === null && first) setTitle(queryClient, threadId, titleFromMessage(first.content))
}

/** Runs `fn` before the next paint; returns a cancel function. Background tabs get no animation frames, so a timer keeps the text moving there. */
function requestFrame(fn: () => void): () => void {
  if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') {
    const id = requestAnimationFrame(fn)
    return () => cancelAnimationFrame(id)
  }
  const id = setTimeout(fn, 50)
  return () => clearTimeout(id)
}
