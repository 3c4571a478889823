import { eq } from 'drizzle-orm'
import { messages } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { replyLease } from '../threads/access'
import type { ReplyState } from './tool-loop'

/** How often the text so far is written to the database while a reply streams. */
const PERSIST_EVERY_MS = 300
/**
 * Written even without new text: every write renews the reply's lease (REPLY_LEASE_MS, three
 * heartbeats), so other processes can tell a live reply from one whose process died.
 */
const HEARTBEAT_MS = 10_000

/** A reply streaming in this process, as the database should come to know it. */
type LiveReply = { id: string; state: ReplyState; changed: boolean; lastWrite: number; writing: boolean }

/**
 * The replies streaming in this process to one database. Their text so far is written together:
 * whichever reply's timer comes first writes every reply that changed, in one batch (one commit,
 * one round trip), so many streams cost a few writes a second rather than a few per stream.
 */
class LiveReplies {
  private readonly replies = new Set<LiveReply>()
  private lastBatch = 0
  private batch: Promise<void> | undefined

  constructor(private readonly deps: AppDeps) {}

  add(reply: LiveReply) {
    this.replies.add(reply)
  }

  delete(reply: LiveReply) {
    this.replies.delete(reply)
  }

  /**
   * Writes the changed replies unless a batch is being written or was written within half the
   * interval (each reply's own timer comes every interval, so none waits much longer than that).
   */
  writeChanged() {
    const now = Date.now()
    if (this.batch || now - this.lastBatch < PERSIST_EVERY_MS / 2) return
    const due = [...this.replies].filter((r) => r.changed && !r.writing)
    if (!due.length) return
    this.lastBatch = now
    const at = new Date(now)
    const updates = due.map((r) => {
      r.changed = false
      r.lastWrite = now
      return this.deps.db
        .update(messages)
        .set({ ...columnsOf(r.state), updatedAt: at, ...replyLease(this.deps, now) })
        .where(eq(messages.id, r.id))
    })
    this.batch = this.deps.db
      .batch(updates as [(typeof updates)[number], ...typeof updates])
      .then(
        () => undefined,
        (error: unknown) => {
          for (const r of due) r.changed = true
          this.deps.logger.warn('could not write streaming replies', { error })
        },
      )
      .finally(() => (this.batch = undefined))
  }

  /** Waits for a batch being written, so that a later write of one reply cannot be overtaken by it. */
  settled() {
    return this.batch ?? Promise.resolve()
  }
}

const liveReplies = new WeakMap<AppDeps, LiveReplies>()
const liveRepliesOf = (deps: AppDeps) => liveReplies.get(deps) ?? liveReplies.set(deps, new LiveReplies(deps)).get(deps)!

const columnsOf = ({ content, reasoning, parts, inputTokens, outputTokens }: ReplyState) => ({ content, reasoning, parts, inputTokens, outputTokens })

type ReplyColumns = Partial<typeof messages.$inferInsert>

/**
 * Keeps the database up to date with one streaming reply: its text so far in the shared batches,
 * a heartbeat while nothing changes, a checkpoint when asked (a tool call), and the last write
 * with its status. Each write renews the reply's lease. `close` ends the timer if the reply ends without `finish`.
 */
export function startReplyWriter(deps: AppDeps, assistantMessageId: string, state: ReplyState) {
  const live = liveRepliesOf(deps)
  const reply: LiveReply = { id: assistantMessageId, state, changed: false, lastWrite: Date.now(), writing: false }
  live.add(reply)
  /** Writes this reply now, after any batch in flight (`extra`: its final status). */
  const persist = async (extra: ReplyColumns = {}) => {
    reply.writing = true
    try {
      await live.settled()
      reply.changed = false
      const now = (reply.lastWrite = Date.now())
      await deps.db
        .update(messages)
        .set({ ...columnsOf(state), updatedAt: new Date(now), ...replyLease(deps, now), ...extra })
        .where(eq(messages.id, assistantMessageId))
    } finally {
      reply.writing = false
    }
  }
  const timer = setInterval(() => {
    if (reply.changed) live.writeChanged()
    else if (Date.now() - reply.lastWrite >= HEARTBEAT_MS && !reply.writing) void persist().catch(() => {})
  }, PERSIST_EVERY_MS)
  const close = () => {
    clearInterval(timer)
    live.delete(reply)
  }
  return {
    changed: () => void (reply.changed = true),
    checkpoint: () => persist(),
    /** The last write: out of the batches first, so that none can overwrite it. */
    finish: (extra: ReplyColumns) => {
      close()
      return persist(extra)
    },
    close,
  }
}
