/** How often a silent SSE stream gets a keep-alive comment: one follows 15 to 30 s of silence. */
export const KEEP_ALIVE_MS = 15_000

/**
 * Keeps a Server-Sent-Events stream alive while it is silent: after each period of `everyMs` in
 * which nothing was written (`wrote`), a comment line (`: keep-alive`), which SSE readers skip.
 * A proxy that ends responses idle for a minute (nginx's `proxy_read_timeout`) then does not cut
 * a stream whose model is thinking (decisions 0124, 0125). One interval per stream; `stop` ends it.
 */
export function keepAlive(controller: ReadableStreamDefaultController<Uint8Array>, everyMs: number) {
  let wrote = false
  const interval = setInterval(() => {
    if (!wrote) {
      try {
        controller.enqueue(COMMENT.slice())
      } catch {
        // Closed meanwhile: its owner stops this.
      }
    }
    wrote = false
  }, everyMs)
  return {
    /** Something went out: no comment at the next look. */
    wrote: () => void (wrote = true),
    stop: () => clearInterval(interval),
  }
}

const COMMENT = new TextEncoder().encode(': keep-alive\n\n')
