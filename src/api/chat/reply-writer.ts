import { eq, sql } from 'drizzle-orm'
import { bound, preparedFor } from '../../../db/client'
import { messages, replyChunks, streamingReplies } from '../../../db/schema'
import { commitTogether } from '../../lib/commit-together'
import type { AppDeps } from '../../lib/context'
import { indexLater } from '../search/access'
import { replyLease } from '../threads/access'
import type { ReplyState } from './tool-loop'

/** How often what a streaming reply said since the last write is written to the database. */
const PERSIST_EVERY_MS = 300
/**
 * How often a streaming reply's lease is renewed (REPLY_LEASE_MS is three heartbeats), so that
 * other processes can tell a live reply from one whose process died.
 */
const HEARTBEAT_MS = 10_000

/** A reply streaming in this process, as the database should come to know it. */
type LiveReply = {
  id: string
  state: ReplyState
  changed: boolean
  writing: boolean
  /** When its lease was last renewed. */
  leased: number
  /** How much of the text and reasoning the database has, and the last appended part's number. */
  written: { content: number; reasoning: number; seq: number }
  /** Someone asked for it to stop (in the database: Stop through any process). */
  onStopRequested: () => void
  /** Its text and reasoning as the writer follows them (`takeNew`). */
  tails: { content: TextTail; reasoning: TextTail }
}

/**
 * A streaming reply's text (or reasoning) as the writer follows it: `base`, the value it had at the
 * last tick (so a prefix of it now, as the tool loop only appends), and what the loop appended since.
 */
export type TextTail = { base: string; added: string; joins: number }

export const newTail = (): TextTail => ({ base: '', added: '', joins: 0 })

/** After this many ticks' pieces the text is made flat again (sliced once): a long reply holds a rope of at most so many. */
export const MAX_JOINS = 32

/**
 * What `text` gained since its first `from` characters, and the text to keep. Where the loop's
 * appends since the last tick account for all of it, that is their text, and the reply's text is
 * kept as the last tick's value joined with it: one piece a tick instead of one a token, nothing
 * copied (the tick then reads the new text whole, to make it well formed and put it in JSON, which
 * makes that piece flat: a token's pieces do not pile up). Otherwise (a write of the whole reply
 * in between, a failed batch, or every MAX_JOINS ticks) it is sliced off the text, which copies
 * all of the text once to make it flat; every tick did that before, and at 1,000 streaming replies
 * it took most of a tick's time on the event loop that was not SQL (decision 0139).
 */
export function takeNew(tail: TextTail, text: string, from: number): { added: string; text: string } {
  const { base, added } = tail
  tail.added = ''
  if (base.length === from && from + added.length === text.length && tail.joins < MAX_JOINS) {
    if (!added) return { added, text }
    tail.joins++
    tail.base = base + added
    return { added, text: tail.base }
  }
  tail.joins = 0
  tail.base = text
  return { added: text.slice(from), text }
}

/**
 * The replies streaming in this process to one database, written by one timer. Every few hundred
 * milliseconds, what each reply said since its last write is appended to it (reply_chunks), all
 * replies in one batch: one commit, and work in proportion to the new text, not the whole reply.
 * Every ten seconds the leases of all of them are renewed in one statement. Each tick also asks,
 * in the same batch, whether Stop was pressed for any of them (in a tab another process serves)
 * or its chat was deleted.
 */
class LiveReplies {
  private readonly replies = new Set<LiveReply>()
  private timer: ReturnType<typeof setInterval> | undefined
  private batch: Promise<void> | undefined

  constructor(private readonly deps: AppDeps) {}

  add(reply: LiveReply) {
    this.replies.add(reply)
    this.timer ??= setInterval(() => this.tick(), PERSIST_EVERY_MS)
  }

  delete(reply: LiveReply) {
    this.replies.delete(reply)
    if (this.replies.size === 0 && this.timer) {
      clearInterval(this.timer)
      this.timer = undefined
    }
  }

  private tick() {
    if (this.batch) return
    const now = Date.now()
    const idle = [...this.replies].filter((r) => !r.writing)
    const appends = idle.filter((r) => r.changed).flatMap((r) => {
      r.changed = false
      const text = takeNew(r.tails.content, r.state.content, r.written.content)
      const thought = takeNew(r.tails.reasoning, r.state.reasoning, r.written.reasoning)
      r.state.content = text.text
      r.state.reasoning = thought.text
      const content = text.added
      const reasoning = thought.added
      if (!content && !reasoning) return []
      const before = { ...r.written }
      r.written = { content: r.state.content.length, reasoning: r.state.reasoning.length, seq: before.seq + 1 }
      return [{ reply: r, before, row: { messageId: r.id, seq: r.written.seq, content, reasoning } }]
    })
    const due = idle.filter((r) => now - r.leased >= HEARTBEAT_MS)
    const live = [...this.replies]
    for (const r of due) r.leased = now
    const writes = [
      ...(appends.length ? [appendChunks(this.deps, appends.map((a) => a.row))] : []),
      ...(due.length ? [this.deps.db.update(messages).set({ updatedAt: new Date(now), ...replyLease(this.deps, now) }).where(idIn(due.map((r) => r.id)))] : []),
    ]
    this.batch = this.deps.db
      .batch([stopRequests(this.deps, live.map((r) => r.id)), ...writes])
      .then(
        (results) => stopWanted(live, results[0]),
        (error: unknown) => {
          // A batch that failed (the database busy or not writable): the question is asked
          // alone, so that the replies someone stopped still stop.
          void stopRequests(this.deps, live.map((r) => r.id)).then((rows) => stopWanted(live, rows), () => {})
          // Nothing of the batch was written: the same text is appended with the next one.
          for (const { reply, before } of appends) {
            reply.written = before
            reply.changed = true
          }
          for (const r of due) r.leased = 0
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

/*
 * The statements of a tick name a thousand replies at once: each list goes in as one JSON
 * parameter, so that the statement's text is the same every time (prepared once per connection)
 * and building it costs nothing. As a list of values (`IN (?, ?, …)`, a row of parameters per
 * appended chunk) Drizzle built and SQLite prepared a statement of thousands of parameters at every
 * tick: tens of milliseconds of the event loop, every 300 ms, at 1,000 streaming replies.
 */
const idIn = (ids: string[]) => sql`${messages.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`

/**
 * Appends what replies said since their last write, one row each, under the reply's number
 * (decision 0116). A reply whose chat was deleted has none: its text is not kept, and the same
 * batch's question (`stopRequests`) stops it. A lone UTF-16 surrogate (half
 * of a character a model cut in two) becomes U+FFFD first, as a bound parameter turns it: in JSON
 * it is an escape that SQLite would store as bytes that are not UTF-8, which the driver then
 * cannot read back.
 */
const appendChunks = (deps: AppDeps, rows: Array<{ messageId: string; seq: number; content: string; reasoning: string }>) =>
  deps.db.run(sql`INSERT INTO ${replyChunks} (reply_n, seq, content, reasoning)
    SELECT s.n, j.value ->> '$[1]', j.value ->> '$[2]', j.value ->> '$[3]'
    FROM json_each(${JSON.stringify(rows.map((r) => [r.messageId, r.seq, wellFormed(r.content), wellFormed(r.reasoning)]))}) AS j
    JOIN ${streamingReplies} s ON s.message_id = j.value ->> '$[0]' AND s.ended = 0`)

const wellFormed = (text: string) => text.replace(/\p{Surrogate}/gu, '\uFFFD')

/**
 * Of the given streaming replies, those to stop: someone asked them to (Stop, through any process),
 * or their chat was deleted (their row is gone). Usually none: the answer names only those, not
 * all the replies asked about (read back as rows, a thousand of them took 5–7 ms a tick in a
 * script, about what the tick's appends take; answering only those, 4 ms).
 */
const stopRequests = (deps: AppDeps, ids: string[]) =>
  deps.db.all<{ id: string }>(sql`SELECT live.value AS id FROM json_each(${JSON.stringify(ids)}) AS live
    WHERE NOT EXISTS (SELECT 1 FROM ${messages} WHERE ${messages.id} = live.value AND ${messages.stopRequestedAt} IS NULL)`)

/** Stops the replies someone asked to stop, and those whose chat was deleted. */
function stopWanted(live: LiveReply[], rows: { id: string }[]) {
  if (rows.length === 0) return
  const stop = new Set(rows.map((r) => r.id))
  for (const r of live) if (stop.has(r.id)) r.onStopRequested()
}

const liveReplies = new WeakMap<AppDeps, LiveReplies>()
const liveRepliesOf = (deps: AppDeps) => liveReplies.get(deps) ?? liveReplies.set(deps, new LiveReplies(deps)).get(deps)!

const placeholder = sql.placeholder

/**
 * The whole reply as it stands, written at a checkpoint (`save`, its appended parts deleted) or
 * with its status at the end (`end`, its parts left for later, decision 0137): prepared once (`bound`). When a thousand replies end
 * within a second, building these statements anew for each was most of what their ends allocated.
 * The token counts and the error code may be null, so they go in through `sql` (see `bound`).
 */
const writeStatements = preparedFor((db) => {
  const reply = {
    content: placeholder('content'),
    reasoning: placeholder('reasoning'),
    parts: placeholder('parts'),
    inputTokens: sql`${placeholder('inputTokens')}`,
    outputTokens: sql`${placeholder('outputTokens')}`,
    updatedAt: placeholder('now'),
    leaseOwner: placeholder('leaseOwner'),
    leaseUntil: placeholder('leaseUntil'),
  } as unknown as ReplyColumns
  const byId = eq(messages.id, placeholder('id'))
  return {
    save: db.update(messages).set(reply).where(byId).prepare(),
    end: db
      .update(messages)
      .set({ ...reply, status: placeholder('status'), errorCode: sql`${placeholder('errorCode')}` } as unknown as ReplyColumns)
      .where(byId)
      .prepare(),
    dropChunks: db
      .delete(replyChunks)
      .where(eq(replyChunks.replyN, db.select({ n: streamingReplies.n }).from(streamingReplies).where(eq(streamingReplies.messageId, placeholder('id')))))
      .prepare(),
  }
})

type ReplyColumns = Partial<typeof messages.$inferInsert>
/** How a reply ends. */
type ReplyEnd = { status: 'complete' | 'stopped' | 'failed'; errorCode?: string }

/**
 * Keeps the database up to date with one streaming reply: what it says appended in the shared
 * batches, its lease renewed, the whole reply written at a checkpoint (a tool call) and with its
 * status at the end. `close` leaves the batches if the reply ends without `finish`.
 */
export function startReplyWriter(deps: AppDeps, assistantMessageId: string, state: ReplyState, onStopRequested: () => void) {
  const live = liveRepliesOf(deps)
  const reply: LiveReply = { id: assistantMessageId, state, changed: false, writing: false, leased: Date.now(), written: { content: 0, reasoning: 0, seq: 0 }, onStopRequested, tails: { content: newTail(), reasoning: newTail() } }
  live.add(reply)
  /** Writes the whole reply, after any batch in flight and with the other writes of this turn (`end`: its final status); at a tool call its appended parts go. */
  const persist = async (end?: ReplyEnd) => {
    reply.writing = true
    try {
      await live.settled()
      reply.changed = false
      const now = Date.now()
      const written = { content: state.content.length, reasoning: state.reasoning.length, seq: reply.written.seq }
      const statements = writeStatements(deps.db)
      const values = {
        id: assistantMessageId,
        content: state.content,
        reasoning: state.reasoning,
        parts: state.parts,
        inputTokens: state.inputTokens,
        outputTokens: state.outputTokens,
        now: new Date(now),
        ...replyLease(deps, now),
        status: end?.status,
        errorCode: end?.errorCode ?? null,
      }
      // With the writes of the other replies that end or reach a tool call in this turn: one commit.
      // At a tool call the appended parts go with it; at the end a trigger marks the reply's number
      // ended, so that no read joins its parts, and they go later with those of the other replies
      // that ended meanwhile (decision 0137).
      await commitTogether(deps, end ? [bound(statements.end, values)] : [bound(statements.save, values), bound(statements.dropChunks, values)])
      reply.written = written
      reply.leased = now
    } finally {
      reply.writing = false
    }
  }
  const close = () => live.delete(reply)
  return {
    changed: (field?: 'content' | 'reasoning', delta?: string) => {
      reply.changed = true
      if (field && delta) reply.tails[field].added += delta
    },
    checkpoint: () => persist(),
    /**
     * The last write: out of the batches first, so that none can overwrite it. The reply then
     * waits to be put in the search index with others that end about then (decision 0107).
     */
    finish: async (end: ReplyEnd) => {
      close()
      await persist(end)
      await indexLater(deps).catch((error: unknown) => deps.logger.warn('could not index an ended reply for search', { error }))
    },
    close,
  }
}
