export type SseEvent = { event: string; data: any }

/** Splits an SSE byte stream into events as they arrive. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let finished = false
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) {
        finished = true
        break
      }
      buffer += decoder.decode(value, { stream: true })
      let end: number
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = frame.match(/^event: (.*)$/m)?.[1] ?? 'message'
        const data = frame.match(/^data: (.*)$/m)?.[1]
        yield { event, data: data ? JSON.parse(data) : null }
      }
    }
  } finally {
    // A consumer that stops early closes the stream, as a browser tab would.
    if (!finished) await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}

/** Reads a whole SSE response into its events. */
export async function readSse(response: Response): Promise<SseEvent[]> {
  const events: SseEvent[] = []
  for await (const e of sseEvents(response.body!)) events.push(e)
  return events
}
