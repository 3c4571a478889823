import type { ReplyEventName } from '../../src/api/chat/schema'
import { readSseFrames } from '../../web/lib/sse-frames'

/** An event as the tests read it: any name (a test may look for one that must not be there), data parsed. */
export type SseEvent = { event: ReplyEventName | (string & {}); data: any }

/** Splits an SSE byte stream into events as they arrive, with the web client's frame reader. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  for await (const frame of readSseFrames(body)) yield { event: frame.event, data: JSON.parse(frame.data) }
}

/** Reads a whole SSE response into its events. */
export async function readSse(response: Response): Promise<SseEvent[]> {
  const events: SseEvent[] = []
  for await (const e of sseEvents(response.body!)) events.push(e)
  return events
}
