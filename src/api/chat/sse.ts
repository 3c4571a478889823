import type { ReplyEvent } from './schema'

export type { ReplyEvent }

const encoder = new TextEncoder()

const sseText = (e: ReplyEvent) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`

/** One Server-Sent-Events frame. */
export function sseFrame(e: ReplyEvent): Uint8Array {
  return encoder.encode(sseText(e))
}

/**
 * Collects frames and hands them to `write` together, once per turn of the event loop: the deltas
 * parsed from one chunk of the provider's answer leave in one write instead of one each. Nothing
 * waits longer than the current turn; `flush` writes at once (before the stream closes).
 */
export function frameQueue(write: (bytes: Uint8Array) => void) {
  let pending = ''
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (!pending) return
    const text = pending
    pending = ''
    write(encoder.encode(text))
  }
  return {
    push(e: ReplyEvent) {
      pending += sseText(e)
      if (!scheduled) {
        scheduled = true
        setTimeout(flush, 0)
      }
    },
    flush,
  }
}
