import type { QueryClient } from '@tanstack/react-query'
import { titleFromMessage } from '../../../../src/api/threads/limits'
import { patchThreadInList, threadDetailKey, type Message, type ThreadDetail } from '../api'
import type { ReplyEvent } from './stream'
import { updateMessage, updateThread, type ToolPart } from './thread-cache'

/**
 * Applies a reply's events to the thread's query cache: deltas once per animation frame, every
 * other event at once (after the deltas before it), the title to the sidebar list as well.
 * `localUserId`: the user message shown before the server confirmed it (a send), replaced by the
 * server's id on `message_start`, as the reply's own local id is.
 */
export function replyInCache(queryClient: QueryClient, threadId: string, assistantId: string, localUserId?: string) {
  let id = assistantId
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
    updateMessage(queryClient, threadId, id, (m) => ({ ...m, content: m.content + text, reasoning: m.reasoning + reasoning }))
  }
  const schedule = () => {
    if (frame === null) frame = requestFrame(flush)
  }
  const setAssistant = (patch: Partial<Message> | ((m: Message) => Partial<Message>)) => {
    flush()
    updateMessage(queryClient, threadId, id, (m) => ({ ...m, ...(typeof patch === 'function' ? patch(m) : patch) }))
  }

  const apply = (e: ReplyEvent) => {
    switch (e.event) {
      case 'message_start': {
        const { userMessageId, assistantMessageId, model } = e.data
        updateThread(queryClient, threadId, (thread) => ({
          ...thread,
          messages: thread.messages.map((m) => {
            const confirmed = m.id === localUserId && userMessageId ? { ...m, id: userMessageId } : m.id === id ? { ...m, id: assistantMessageId, model } : m
            return confirmed === m ? m : { ...confirmed, siblingIds: confirmed.siblingIds.map((sibling) => (sibling === m.id ? confirmed.id : sibling)) }
          }),
        }))
        id = assistantMessageId
        break
      }
      case 'text':
        pending.text += e.data.delta
        schedule()
        break
      case 'reasoning':
        pending.reasoning += e.data.delta
        schedule()
        break
      case 'tool_call':
      case 'tool_result':
        setAssistant((m) => {
          const part: ToolPart = e.event === 'tool_call' ? { type: 'tool_call', ...e.data, offset: m.content.length } : { type: 'tool_result', ...e.data }
          return { parts: [...m.parts, part] }
        })
        break
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
        setAssistant({ status: e.data.status })
        break
    }
  }
  return { apply, flush, setAssistant }
}

function setTitle(queryClient: QueryClient, threadId: string, title: string) {
  updateThread(queryClient, threadId, (thread) => ({ ...thread, title }))
  patchThreadInList(queryClient, threadId, { title })
}

/**
 * A chat whose first reply was stopped is titled by the server from its first message; when the
 * stream closed before that title could arrive, the same title is shown here at once.
 */
export function titleStoppedChat(queryClient: QueryClient, threadId: string) {
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
