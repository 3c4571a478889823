import type { ReplyEvent } from './schema'

export type { ReplyEvent }

const encoder = new TextEncoder()

const sseText = (e: ReplyEvent) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`

/** One Server-Sent-Events frame. */
export function sseFrame(e: ReplyEvent): Uint8Array {
  return encoder.encode(sseText(e))
}

/**
 * Collects the frames of a reply and hands them to `write`. Text and reasoning deltas wait for
 * `flush`, which the relay calls after each network chunk of the provider's answer: the deltas
 * parsed from one chunk leave in one write, consecutive ones merged into one frame. Every other
 * event (start, tool calls, usage, end) leaves at once, after what waited before it. A timer of
 * the current turn only backs up a caller that never flushes.
 */
export function frameQueue(write: (bytes: Uint8Array) => void) {
  let pending = ''
  /** The delta event being merged into, not yet in `pending`. */
  let delta: { event: 'text' | 'reasoning'; text: string } | undefined
  let backstop: ReturnType<typeof setTimeout> | undefined

  const closeDelta = () => {
    if (!delta) return
    pending += `event: ${delta.event}\ndata: ${JSON.stringify({ delta: delta.text })}\n\n`
    delta = undefined
  }
  const flush = () => {
    if (backstop !== undefined) clearTimeout(backstop)
    backstop = undefined
    closeDelta()
    if (!pending) return
    const text = pending
    pending = ''
    write(encoder.encode(text))
  }
  return {
    push(e: ReplyEvent) {
      if (e.event === 'text' || e.event === 'reasoning') {
        if (delta?.event === e.event) delta.text += e.data.delta
        else {
          closeDelta()
          delta = { event: e.event, text: e.data.delta }
        }
        backstop ??= setTimeout(flush, 0)
        return
      }
      closeDelta()
      pending += sseText(e)
      flush()
    },
    flush,
  }
}
