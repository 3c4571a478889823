import type { ReplyEvent } from '../../../../src/api/chat/sse'
import { ApiError } from '../../../lib/api-client'

export type { ReplyEvent }
export type ReplyEventName = ReplyEvent['event']

const EVENT_NAMES = new Set<string>([
  'message_start',
  'text',
  'reasoning',
  'tool_call',
  'tool_result',
  'usage',
  'title',
  'error',
  'message_end',
])

/**
 * Reads Server-Sent-Events frames from a byte stream. A frame may arrive split over several
 * chunks (even inside a multi-byte character), or several frames in one chunk; unknown events
 * and frames whose data is not JSON are skipped.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ReplyEvent> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    while (true) {
      const { done, value } = await reader.read()
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true })
      // CRLF and CR end lines too; a CR at the very end may be the first half of a CRLF.
      buffer = buffer.replace(/\r\n/g, '\n').replace(done ? /\r/g : /\r(?!$)/g, '\n')
      let end = buffer.indexOf('\n\n')
      while (end !== -1) {
        const event = parseFrame(buffer.slice(0, end))
        buffer = buffer.slice(end + 2)
        if (event) yield event
        end = buffer.indexOf('\n\n')
      }
      if (done) {
        const last = parseFrame(buffer)
        if (last) yield last
        return
      }
    }
  } finally {
    reader.releaseLock()
  }
}

/** One frame: `event: <name>` and `data: <json>` lines (several data lines join with newlines). */
export function parseFrame(frame: string): ReplyEvent | null {
  let name = 'message'
  const data: string[] = []
  for (const line of frame.split('\n')) {
    if (!line || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'event') name = value
    else if (field === 'data') data.push(value)
  }
  if (!EVENT_NAMES.has(name) || data.length === 0) return null
  try {
    return { event: name, data: JSON.parse(data.join('\n')) } as ReplyEvent
  } catch {
    return null
  }
}

export type ReplyRequest =
  | { kind: 'send'; threadId: string; content: string; replaceLast?: boolean }
  | { kind: 'regenerate'; threadId: string }

/**
 * Starts a reply and yields its events. A refusal before the stream starts (404, 409, 400 …)
 * throws ApiError; a network failure throws the fetch's TypeError; aborting the signal stops the
 * reply on the server too (it keeps what streamed, marked stopped).
 */
export async function* streamReply(request: ReplyRequest, signal: AbortSignal, fetcher: typeof fetch = fetch): AsyncGenerator<ReplyEvent> {
  const id = encodeURIComponent(request.threadId)
  const res = await fetcher(request.kind === 'send' ? `/api/threads/${id}/messages` : `/api/threads/${id}/regenerate`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(request.kind === 'send' ? { content: request.content, replaceLast: request.replaceLast || undefined } : {}),
    signal,
  })
  if (!res.ok || !res.body) {
    const data = (await res.json().catch(() => null)) as Partial<ApiError> | null
    throw new ApiError(data?.code ?? 'INTERNAL_ERROR', data?.message ?? res.statusText, data?.status ?? res.status ?? 500, data?.fields)
  }
  yield* readSseEvents(res.body)
}
