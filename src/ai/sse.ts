import { connectionLost, isAbort, ProviderError } from './errors'

/** One Server-Sent-Events message: its `event` field (null when unnamed) and its data lines joined by \n. */
export type SseMessage = { event: string | null; data: string }

/** Maps an HTTP error answer of a provider (status, headers, body text) to our error. */
export type HttpFailure = (status: number, headers: Headers, body: string) => ProviderError

export type SseRequest = {
  url: string
  headers: Record<string, string>
  body: string
  signal?: AbortSignal
  fetch?: typeof fetch
  /** How this provider's error answers read. */
  failure: HttpFailure
  /** Messages the adapter takes as they are read (see TakeMessage). */
  take?: TakeMessage
}

/**
 * Offered each message with one data line before it is made into an `SseMessage`: its `event`
 * and its data, `text[start, end)`. True when the adapter took it (its events are the adapter's
 * now, ahead of the batch's messages); false, and it goes into the batch as any other. Only
 * offered while the batch is empty, so that the adapter meets the messages in their order: the
 * ones it took, then the batch's.
 */
export type TakeMessage = (event: string | null, text: string, start: number, end: number) => boolean

/**
 * POSTs a streamed request and returns the SSE messages of its answer, a network chunk at a
 * time. Errors follow the gateway's model: an error status → `failure(...)`; a connection that
 * cannot be made or breaks → PROVIDER_UNAVAILABLE (retryable); an abort passes through as is.
 */
export async function postSse(req: SseRequest): Promise<{ headers: Headers; batches: AsyncGenerator<SseMessage[]> }> {
  let response: Response
  try {
    response = await (req.fetch ?? fetch)(req.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...req.headers },
      body: req.body,
      signal: req.signal,
    })
  } catch (error) {
    throw isAbort(error) ? error : connectionLost(error)
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '')
    throw req.failure(response.status, response.headers, text)
  }
  if (!response.body) throw new ProviderError('PROVIDER_BAD_RESPONSE', { detail: 'a streamed answer without a body' })
  return { headers: response.headers, batches: sseBatches(response.body, req.take) }
}

/**
 * The most messages yielded together: FIRST_BATCH until a chunk first had to be cut, MAX_BATCH
 * after. A provider that answers faster than its reply is relayed fills network chunks of hundreds
 * of kilobytes (thousands of tokens); parsed in one piece, the first of them would wait for the
 * last. A small batch first gets the first words out at once; larger ones after the first cut keep
 * the cost per message low. A chunk of ordinary size (a model at its own pace) is one batch.
 */
export const FIRST_BATCH = 32
export const MAX_BATCH = 1024

/**
 * Reads a body of Server-Sent Events (WHATWG rules: lines end in \n, \r\n or \r; a blank line ends
 * a message; `data` lines are joined; a field's name alone is the field with an empty value, and an
 * empty `event` leaves the message unnamed; comments, `id` and `retry` are ignored; an unfinished last
 * message is dropped) and yields the messages of each network chunk together, at most
 * FIRST_BATCH or MAX_BATCH at a time, so that a chunk of hundreds of small frames costs one await
 * instead of hundreds. Linear in the body's size: only the unfinished last line is carried over to
 * the next chunk. Returning early cancels the body, which closes the connection.
 *
 * With `take`, a message with one data line is first offered to the adapter where it stands in the
 * chunk's text, while the batch is empty: one it takes is never cut out of the text nor made into
 * a message (a fast provider's text events, thousands per chunk). Those count towards the batch's
 * size; a batch may then be empty, and is yielded all the same.
 */
export async function* sseBatches(body: ReadableStream<Uint8Array>, take?: TakeMessage): AsyncGenerator<SseMessage[]> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let rest = ''
  let event: string | null = null
  /** The message's data: while it is one line of this chunk, where it lies (`first`, `firstEnd`); else its lines. */
  let first = -1
  let firstEnd = -1
  let data: string | string[] | null = null
  let finished = false
  let limit = FIRST_BATCH
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await reader.read()
      } catch (error) {
        throw isAbort(error) ? error : connectionLost(error)
      }
      let text = rest + (chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true }))
      rest = ''
      if (text.includes('\r')) {
        // A \r at the end may be the first half of a \r\n split across chunks.
        if (!chunk.done && text.endsWith('\r')) {
          rest = '\r'
          text = text.slice(0, -1)
        }
        text = text.replace(/\r\n?/g, '\n')
      }
      let batch: SseMessage[] = []
      /** Messages the adapter took since the last yield. */
      let taken = 0
      let start = 0
      for (let end = text.indexOf('\n'); end !== -1; start = end + 1, end = text.indexOf('\n', start)) {
        if (end === start) {
          if (first >= 0) {
            if (batch.length === 0 && take?.(event, text, first, firstEnd)) taken++
            else batch.push({ event, data: text.slice(first, firstEnd) })
          } else if (data !== null) {
            if (typeof data === 'string' && batch.length === 0 && take?.(event, data, 0, data.length)) taken++
            else batch.push({ event, data: typeof data === 'string' ? data : data.join('\n') })
          }
          event = null
          first = -1
          data = null
          if (batch.length + taken === limit) {
            yield batch
            batch = []
            taken = 0
            // The first words are out: the rest of a piled-up answer goes in larger batches.
            limit = MAX_BATCH
          }
          continue
        }
        // The field's value starts after its colon and one space, if there is one; no line is cut out first.
        // A line of the field's name alone is that field with an empty value.
        if (text.startsWith('data', start) && (end === start + 4 || text.charCodeAt(start + 4) === 58)) {
          const from = end === start + 4 ? end : text.charCodeAt(start + 5) === 32 ? start + 6 : start + 5
          if (first < 0 && data === null) {
            first = from
            firstEnd = end
          } else {
            // A second line or more: the lines are kept, to be joined.
            const lines: string[] = first >= 0 ? [text.slice(first, firstEnd)] : typeof data === 'string' ? [data] : data!
            lines.push(text.slice(from, end))
            data = lines
            first = -1
          }
        } else if (text.startsWith('event', start) && (end === start + 5 || text.charCodeAt(start + 5) === 58)) {
          // An empty name is no name: the message is unnamed, as one without the field.
          event = end === start + 5 ? null : text.slice(text.charCodeAt(start + 6) === 32 ? start + 7 : start + 6, end) || null
        }
        // Anything else is a comment (":"), an id, a retry or an unknown field: ignored.
      }
      // A message whose data line came in this chunk and whose end comes in a later one keeps its line.
      if (first >= 0) {
        data = text.slice(first, firstEnd)
        first = -1
      }
      rest = text.slice(start) + rest
      if (batch.length || taken) yield batch
      if (chunk.done) {
        finished = true
        return
      }
    }
  } finally {
    if (!finished) reader.cancel().catch(() => {})
  }
}
