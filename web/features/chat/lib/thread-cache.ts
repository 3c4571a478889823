import type { QueryClient } from '@tanstack/react-query'
import { threadDetailKey, type Message, type ThreadDetail } from '../api'

/** A tool call or its result, as stored in a message's parts and as they arrive on the stream. */
export type ToolPart =
  | { type: 'tool_call'; id: string; name: string; arguments: string; offset?: number }
  | { type: 'tool_result'; id: string; name: string; result: string; isError: boolean; code?: string; data?: unknown }

export function updateThread(queryClient: QueryClient, threadId: string, update: (thread: ThreadDetail) => ThreadDetail) {
  queryClient.setQueryData<ThreadDetail>(threadDetailKey(threadId), (thread) => thread && update(thread))
}

export function updateMessage(queryClient: QueryClient, threadId: string, messageId: string, update: (message: Message) => Message) {
  updateThread(queryClient, threadId, (thread) => {
    const index = thread.messages.findIndex((m) => m.id === messageId)
    if (index === -1) return thread
    const messages = thread.messages.slice()
    messages[index] = update(messages[index]!)
    return { ...thread, messages }
  })
}

let localIds = 0
/** A message shown before the server has confirmed it; its id is replaced on `message_start`. */
export function localMessage(role: Message['role'], content: string, status: Message['status']): Message {
  return {
    id: `local-${role}-${++localIds}`,
    role,
    content,
    reasoning: '',
    parts: [],
    status,
    errorCode: null,
    model: null,
    usage: null,
    createdAt: new Date().toISOString(),
    parentId: null,
    siblingIds: [],
  }
}

/** The versions of a message that replaces `previous` as a new version of it (edit and resend, regenerate). */
export const versionsAfter = (previous: Message | undefined, id: string) => [...(previous ? (previous.siblingIds.length ? previous.siblingIds : [previous.id]) : []), id]

/** The messages left once the last user message and everything after it are replaced (edit and resend). */
export function withoutLastUserTurn(messages: Message[]): Message[] {
  const lastUser = messages.findLastIndex((m) => m.role === 'user')
  return lastUser === -1 ? messages : messages.slice(0, lastUser)
}

/** The messages left once the last reply is replaced (regenerate, retry). */
export function withoutLastReply(messages: Message[]): Message[] {
  return messages.at(-1)?.role === 'assistant' ? messages.slice(0, -1) : messages
}

/** A reply the server is still writing, and this tab is not the one receiving it (e.g. after a reload). */
export const isStreaming = (thread: ThreadDetail | undefined) => thread?.messages.at(-1)?.status === 'streaming'
