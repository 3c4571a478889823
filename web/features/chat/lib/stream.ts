import type { ReplyEvent, ReplyEventName } from '../../../../src/api/chat/schema'
import { ApiError } from '../../../lib/api-client'
import { readSseFrames, type SseFrame } from '../../../lib/sse-frames'

export type { ReplyEvent, ReplyEventName }

// Every reply event of the contract, checked by the compiler: reading the names from the schema
// at run time would bring zod into the shell's chunk.
const EVENTS: Record<ReplyEventName, true> = {
  message_start: true,
  budget_notice: true,
  text: true,
  reasoning: true,
  tool_call: true,
  tool_result: true,
  usage: true,
  title: true,
  error: true,
  message_end: true,
  stream_stopped: true,
}
const EVENT_NAMES = new Set<string>(Object.keys(EVENTS))

/** A reply event with the position its frame names (its SSE id: where the client is after it). */
export type PositionedEvent = ReplyEvent & { id?: string }

/** The reply's events from its byte stream; unknown events and frames whose data is not JSON are skipped. */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<PositionedEvent> {
  for await (const frame of readSseFrames(body)) {
    const event = toReplyEvent(frame)
    if (event) yield frame.id === undefined ? event : { ...event, id: frame.id }
  }
}

function toReplyEvent(frame: SseFrame): ReplyEvent | null {
  if (!EVENT_NAMES.has(frame.event)) return null
  try {
    return { event: frame.event, data: JSON.parse(frame.data) } as ReplyEvent
  } catch {
    return null
  }
}

/** The body of an answer; an error answer throws its ApiError. */
async function bodyOf(res: Response): Promise<ReadableStream<Uint8Array>> {
  if (!res.ok || !res.body) {
    const data = (await res.json().catch(() => null)) as Partial<ApiError> | null
    throw new ApiError(data?.code ?? 'INTERNAL_ERROR', data?.message ?? res.statusText, data?.status ?? res.status ?? 500, data?.fields, data?.details)
  }
  return res.body
}

export type ReplyRequest =
  | { kind: 'send'; threadId: string; content: string; replaceLast?: boolean }
  | { kind: 'regenerate'; threadId: string }

/**
 * Starts a reply and yields its events. A refusal before the stream starts (404, 409, 400 …)
 * throws ApiError; a network failure throws the fetch's TypeError. The reply runs on the server
 * whether or not this stream is read to its end: aborting the signal only stops reading it.
 */
export async function* streamReply(request: ReplyRequest, signal: AbortSignal, fetcher: typeof fetch = fetch): AsyncGenerator<PositionedEvent> {
  const id = encodeURIComponent(request.threadId)
  const res = await fetcher(request.kind === 'send' ? `/api/threads/${id}/messages` : `/api/threads/${id}/regenerate`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(request.kind === 'send' ? { content: request.content, replaceLast: request.replaceLast || undefined } : {}),
    signal,
  })
  yield* readSseEvents(await bodyOf(res))
}

const replyPath = (threadId: string, messageId: string) => `/api/threads/${encodeURIComponent(threadId)}/messages/${encodeURIComponent(messageId)}`

/**
 * Attaches to a reply the server is writing, from `lastEventId` (the id of the last frame this
 * client has): the events it lacks, then the reply as it goes on, then its end.
 */
export async function* attachReply(threadId: string, messageId: string, lastEventId: string | undefined, signal: AbortSignal, fetcher: typeof fetch = fetch): AsyncGenerator<PositionedEvent> {
  const res = await fetcher(`${replyPath(threadId, messageId)}/stream`, {
    credentials: 'include',
    headers: { accept: 'text/event-stream', ...(lastEventId !== undefined && { 'last-event-id': lastEventId }) },
    signal,
  })
  yield* readSseEvents(await bodyOf(res))
}

/** Asks the server to stop a reply, wherever it runs; its stream then ends `stopped`. */
export async function requestStop(threadId: string, messageId: string, fetcher: typeof fetch = fetch) {
  const res = await fetcher(`${replyPath(threadId, messageId)}/stop`, { method: 'POST', credentials: 'include' })
  if (!res.ok) await bodyOf(res)
}
