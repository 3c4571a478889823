/** One Server-Sent-Events frame: its event name (`message` when it has none), its data lines joined and its `id`, if it has one. */
export type SseFrame = { event: string; data: string; id?: string }

/**
 * Reads Server-Sent-Events frames from a byte stream: the chat client and the tests read replies
 * with it. A frame may arrive split over several chunks (even inside a multi-byte character), or
 * several frames in one chunk; CRLF and CR end lines too. Frames without data are skipped. A
 * reader that stops early cancels the stream, as a closed browser tab would.
 */
export async function* readSseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let finished = false
  try {
    while (true) {
      const { done, value } = await reader.read()
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true })
      // A CR at the very end may be the first half of a CRLF.
      buffer = buffer.replace(/\r\n/g, '\n').replace(done ? /\r/g : /\r(?!$)/g, '\n')
      let end = buffer.indexOf('\n\n')
      while (end !== -1) {
        const frame = parseFrame(buffer.slice(0, end))
        buffer = buffer.slice(end + 2)
        if (frame) yield frame
        end = buffer.indexOf('\n\n')
      }
      if (done) {
        finished = true
        const last = parseFrame(buffer)
        if (last) yield last
        return
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}

/** One frame's `event:`, `data:` and `id:` lines (several data lines join with newlines); comments are skipped. */
export function parseFrame(frame: string): SseFrame | null {
  let event = 'message'
  let id: string | undefined
  const data: string[] = []
  for (const line of frame.split('\n')) {
    if (!line || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'event') event = value
    else if (field === 'data') data.push(value)
    else if (field === 'id' && !value.includes('\0')) id = value
  }
  return data.length === 0 ? null : { event, data: data.join('\n'), ...(id !== undefined && { id }) }
}
