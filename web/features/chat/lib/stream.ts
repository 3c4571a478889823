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
}
const EVENT_NAMES = new Set<string>(Object.keys(EVENTS))

/** The reply's events from its byte stream; unknown events and frames whose data is not JSON are skipped. */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ReplyEvent> {
  for await (const frame of readSseFrames(body)) {
    const event = toReplyEvent(frame)
    if (event) yield event
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
    throw new ApiError(data?.code ?? 'INTERNAL_ERROR', data?.message ?? res.statusText, data?.status ?? res.status ?? 500, data?.fields, data?.details)
  }
  yield* readSseEvents(res.body)
}
