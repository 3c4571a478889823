/**
 * The first message of a new chat, handed from /chat to /chats/{id}, which sends it, with the
 * files chosen for it (spec: the pending message and its sources are held during chat start).
 *
 * Exactly once: a message is taken at most once per page load (React's double effects in
 * development find nothing the second time). It is also kept in sessionStorage until the server
 * confirms it (`message_start`), so that a reload in between still sends it; the thread page then
 * sends it only while the thread has no messages, i.e. the server never got it. Files cannot be
 * stored there: they live in memory only, and are taken (uploaded) with the message.
 */
export type PendingMessage = { content: string; files: File[] }

const memory = new Map<string, PendingMessage>()
const taken = new Set<string>()
const storageKey = (threadId: string) => `kontor:pending-message:${threadId}`

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    return null // storage can be blocked by the browser's settings
  }
}

export function setPendingMessage(threadId: string, content: string, files: File[] = []) {
  memory.set(threadId, { content, files })
  taken.delete(threadId)
  try {
    storage()?.setItem(storageKey(threadId), content)
  } catch {
    // full or blocked: the in-memory copy still covers the navigation
  }
}

/** The pending message of a thread, once; null when there is none or it was already taken. */
export function takePendingMessage(threadId: string): PendingMessage | null {
  if (taken.has(threadId)) return null
  const stored = storage()?.getItem(storageKey(threadId))
  const pending = memory.get(threadId) ?? (stored == null ? null : { content: stored, files: [] })
  if (pending === null) return null
  taken.add(threadId)
  memory.delete(threadId)
  return pending
}

/** The server has the message (or it was given back to the user): forget it. */
export function clearPendingMessage(threadId: string) {
  memory.delete(threadId)
  storage()?.removeItem(storageKey(threadId))
}
