import {
  emailDraft,
  passageData,
  replyEvents,
  searchData,
  searchResult,
  sourcePassage,
  websiteData,
  type ReplyEventName,
} from '../../src/api/chat/schema'
import { readSseFrames } from '../../web/lib/sse-frames'

/** An event as the tests read it: any name (a test may look for one that must not be there), data parsed. */
export type SseEvent = { event: ReplyEventName | (string & {}); data: any; id?: string }

/** What each of the chat's tools may put in its result's `data`, checked item by item as the web reads it. */
const TOOL_DATA: Record<string, (data: unknown) => void> = {
  send_email: (data) => emailDraft.parse(data),
  internet_search: (data) => searchData.parse(data).results.forEach((r) => searchResult.parse(r)),
  website_content: (data) => websiteData.parse(data),
  source_query: (data) => passageData.parse(data).passages.forEach((p) => sourcePassage.parse(p)),
}

/**
 * Holds every event the server sends to the chat contract (src/api/chat/schema.ts): a reply event
 * whose data does not fit its schema, or a tool's data that does not fit its own, fails the test.
 */
function checked(event: SseEvent): SseEvent {
  const schema = replyEvents[event.event as ReplyEventName]
  if (!schema) return event
  schema.parse(event.data)
  if (event.event === 'tool_result' && event.data.data !== undefined) TOOL_DATA[event.data.name]?.(event.data.data)
  return event
}

/** Splits an SSE byte stream into events as they arrive, with the web client's frame reader (`ids`: with each frame's id). */
export async function* sseEvents(body: ReadableStream<Uint8Array>, opts: { ids?: boolean } = {}): AsyncGenerator<SseEvent> {
  for await (const frame of readSseFrames(body)) yield checked({ event: frame.event, data: JSON.parse(frame.data), ...(opts.ids && { id: frame.id }) })
}

/** Reads a whole SSE response into its events. */
export async function readSse(response: Response, opts: { ids?: boolean } = {}): Promise<SseEvent[]> {
  const events: SseEvent[] = []
  for await (const e of sseEvents(response.body!, opts)) events.push(e)
  return events
}
