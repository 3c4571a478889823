import type { AppDeps } from '../../lib/context'
import { KEEP_ALIVE_MS, keepAlive } from '../../lib/keep-alive'
import { writesLeft, writesLeftTogether } from '../../lib/next-turn'
import type { ReplyEvent } from './schema'
import { frameQueue, sseFrame, type ReplyPosition } from './sse'
import type { ReplyState } from './tool-loop'

/**
 * What a client may leave unread before its stream is stopped: far more than a model's pace lets
 * pile up while a browser is busy, far less than a process can hold for each of many replies. The
 * stream then ends with `stream_stopped` after what waits; the reply goes on, and the client
 * attaches again from where it is.
 */
export const MAX_UNREAD_BYTES = 1 << 20

/**
 * How long a stopped stream's frames may wait in it. A client that does not read on in that time
 * (a stalled tab, a connection that went quiet without closing: the server lets a stream stay open
 * for minutes) has the stream dropped, which lets go of what still waited in it. What the server's
 * writer had already taken (a replay is written at once, before the client can read) waits for the
 * connection instead: at most about MAX_UNREAD_BYTES.
 */
export const UNREAD_GRACE_MS = 60_000

// A client's stream is silent while a model thinks, a tool runs, or (followed from the database)
// the reply does not grow: it gets keep-alive comments (lib/keep-alive.ts).
export { KEEP_ALIVE_MS }

/**
 * The queue mark of a client's stream (not a cap: a client's stream is stopped only past
 * MAX_UNREAD_BYTES). Bun's server sizes the buffer it writes the stream to the socket through by
 * it: with 16 KB, 1,000 replies at once held 17 MB of those buffers; with 1 KB the median peak was
 * 279 against 288 MB and the median CPU time 54 against 57 µs a token (bench/concurrency.ts, six
 * single rounds each, decision 0115). A frame is written as it comes either way.
 */
const QUEUE_MARK_BYTES = 1024

/** One client's stream of a reply: the events it is given, less what it already has (`seen`). */
export type ReplySubscriber = {
  push: (e: ReplyEvent) => void
  /** Writes what waits; whether there was anything. */
  flush: () => boolean
  close: () => void
  readonly closed: boolean
}

/**
 * A stream of SSE frames for one client who has `seen` so much of the reply. The events pushed run
 * from the reply's start (a replay of what is known, then what comes live); text, reasoning and
 * tool parts the client has are left out, so the client gets each once, in order, wherever it
 * attaches. `onGone` runs once when the client leaves (or leaves too much unread and its stream is
 * stopped; `graceMs`: how long it may take to read that end, UNREAD_GRACE_MS). A silent stream gets
 * a comment every `keepAliveMs` (KEEP_ALIVE_MS) until then.
 */
export function replySubscriber(deps: AppDeps, seen: ReplyPosition, onGone: () => void, { graceMs = UNREAD_GRACE_MS, keepAliveMs = KEEP_ALIVE_MS } = {}) {
  const at = { content: 0, reasoning: 0, parts: 0 }
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let closed = false
  /** Set while a stopped stream waits to be read to its end. */
  let grace: ReturnType<typeof setTimeout> | undefined
  let alive: ReturnType<typeof keepAlive> | undefined
  const gone = () => {
    if (closed) return
    closed = true
    alive?.stop()
    onGone()
  }
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      // The server's writer has taken what waited in a stopped stream (all but the queue mark): it ends after the rest.
      pull: () => {
        if (grace === undefined) return
        clearTimeout(grace)
        grace = undefined
        controller.close()
      },
      cancel: () => {
        clearTimeout(grace)
        gone()
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: QUEUE_MARK_BYTES }),
  )
  alive = keepAlive(controller, keepAliveMs)
  // Answers whether the stream takes more.
  const frames = frameQueue((bytes) => {
    if (closed) return false
    alive!.wrote()
    try {
      controller.enqueue(bytes)
    } catch {
      gone()
      return false
    }
    if ((controller.desiredSize ?? 0) < -MAX_UNREAD_BYTES) {
      deps.logger.warn('a client has more than the cap of its reply unread, stopping its stream')
      gone()
      // A clear end after what waits; the stream closes once the server's writer has taken it all (pull).
      controller.enqueue(sseFrame({ event: 'stream_stopped', data: { reason: 'unread' } }))
      grace = setTimeout(() => {
        grace = undefined
        deps.logger.info('client did not read its stopped stream, dropping it')
        try {
          // Dropped, which lets go of what waits.
          controller.error(new Error('The client does not read the reply'))
        } catch {
          // Already closed.
        }
      }, graceMs)
      return false
    }
    return true
  }, seen, deps.writesTogether)

  const subscriber: ReplySubscriber = {
    push(e) {
      if (closed) return
      if (e.event === 'text' || e.event === 'reasoning') {
        const key = e.event === 'text' ? 'content' : 'reasoning'
        const skip = seen[key] - at[key]
        at[key] += e.data.delta.length
        if (skip <= 0) frames.push(e)
        else if (skip < e.data.delta.length) frames.push({ event: e.event, data: { delta: e.data.delta.slice(skip) } })
        return
      }
      if ((e.event === 'tool_call' || e.event === 'tool_result') && at.parts++ < seen.parts) return
      frames.push(e)
    },
    flush: () => frames.flush(),
    close() {
      frames.flush()
      if (closed) return
      gone()
      controller.close()
    },
    get closed() {
      return closed
    },
  }
  return { stream, subscriber }
}

/** The start of a reply as its stream announces it. */
export type ReplyStart = Extract<ReplyEvent, { event: 'message_start' }>['data']

/**
 * A reply running in this process: its state as it grows and the clients following it. The run
 * sends each event to every client; a client that leaves leaves the run alone.
 */
export class LiveReply {
  private readonly subscribers = new Set<ReplySubscriber>()

  constructor(
    readonly start: ReplyStart,
    readonly state: ReplyState,
    readonly abort: AbortController,
    /** Whether its waits for a turn may be every reply's (`writesTogether`). */
    private readonly together = false,
  ) {}

  /** A client's stream: from the start (the client that sent the message) or attached later from `seen`. */
  follow(deps: AppDeps, seen: ReplyPosition, replay: (push: (e: ReplyEvent) => void) => void = () => {}) {
    const { stream, subscriber } = replySubscriber(deps, seen, () => this.subscribers.delete(subscriber))
    this.subscribers.add(subscriber)
    replay(subscriber.push)
    subscriber.flush()
    return stream
  }

  /** Whether its last event was sent: the database has all of it, and a client attaching now reads it there. */
  ended = false

  /** The title the reply gave its chat, once sent: a client attaching later may have read the chat before it. */
  title: string | undefined

  send = (e: ReplyEvent) => {
    if (e.event === 'message_end') this.ended = true
    if (e.event === 'title') this.title = e.data.title
    for (const s of this.subscribers) s.push(e)
  }

  /**
   * Writes what the clients' streams collected. When something was written, the promise returned
   * settles once the write has left the process (`writesLeft`: the loop's I/O phase after this
   * turn): a caller that waits for it (the provider's reader, see `onChunkEnd`) lets the write
   * leave before it parses on. Without it, a provider answer that arrived faster than it is relayed
   * (buffered while the reply's first rows were committed) would be parsed to its end in one turn
   * and reach the client in one piece; after one turn only, each write waited for the next one to
   * be parsed (decision 0102). A provider read at its own pace loses nothing: its next chunk comes
   * in a later turn anyway.
   */
  flush = (): Promise<void> | undefined => {
    let wrote = false
    for (const s of this.subscribers) wrote = s.flush() || wrote
    return wrote ? this.currentTurn() : undefined
  }

  /**
   * The current turn of the event loop, as a promise that settles once the writes made so far
   * have left (the loop's I/O phase after it). In the Bun server one for all replies writing in
   * the turn (`writesLeftTogether`, decision 0105); on Workers each reply has its own pair of
   * timers: a timer there belongs to the request that set it, and one that was cancelled would
   * never settle a promise that other replies wait for (see sources/process.ts).
   */
  private turn: Promise<void> | undefined
  private currentTurn() {
    if (this.together) return writesLeftTogether()
    return (this.turn ??= writesLeft(() => (this.turn = undefined)))
  }

  /** The reply has ended: every client's stream closes after what was sent. */
  end() {
    for (const s of [...this.subscribers]) s.close()
  }
}

const registries = new WeakMap<AppDeps, Map<string, LiveReply>>()

/** The replies running in this process (one app's dependencies), by assistant message id. */
export const liveReplies = (deps: AppDeps) => registries.get(deps) ?? registries.set(deps, new Map()).get(deps)!
