import { and, asc, desc, eq, gte, sql, type SQL } from 'drizzle-orm'
import { bound, preparedFor } from '../../../db/client'
import { messages, threads } from '../../../db/schema'
import { commitTogether } from '../../lib/commit-together'
import type { AppDeps } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { endAbandonedRepliesOf, isAbandoned, replyLease } from '../threads/access'
import type { EarlyCall } from './tool-loop'

export type BeginMode = { kind: 'send'; content: string; replaceLast: boolean } | { kind: 'regenerate' }

type MessageRow = typeof messages.$inferSelect

/** A reply begun: the user message's id (a send's) and the history as the writes found it (`asPlanned`: as the plan read before them). */
export type Begun = { userMessageId: string | null; turns: Turn[]; asPlanned: boolean }

/**
 * Stores the user message (unless regenerating) and the assistant message that will stream, all
 * or nothing. The partial unique index on streaming messages is the lock: a second send to the
 * same thread fails with REPLY_IN_PROGRESS, whichever server process it reaches, and its user
 * message is rolled back with it. A reply left streaming by a process that is gone is ended
 * `interrupted` first, so it holds the lock no longer; the new reply takes this process's lease.
 * That update is left out where a plan was read: a streaming reply is always on the branch shown
 * (nothing moves a message off it while one streams), and the plan found none there, so there is
 * none to end; one begun since is alive, and its lock refuses this reply as it should.
 *
 * With a `planned` history (plannedHistory) the writes check that the chat is still as it was
 * read, instead of reading its branch back: the user message follows the message the plan said it
 * would (`after`), or the reply replaced is still the branch's last (decision 0119). The messages
 * before it are then the ones read, and a message that has ended is not written again (but by the
 * process of a reply ended `interrupted` elsewhere after its lease ran out, decision 0032, whose
 * last write may land at any time), so the history is the plan's. Read back, a long chat's branch
 * (every column of every message) held the event loop for milliseconds in the batch, while the
 * early model call's answer waited. Otherwise, and when the chat changed, the branch is read.
 */
export async function beginReply(deps: AppDeps, threadId: string, mode: BeginMode, model: string, assistantMessageId: string, planned?: Planned | null): Promise<Begun> {
  const now = new Date()
  try {
    return mode.kind === 'send'
      ? await beginSend(deps, threadId, mode, model, assistantMessageId, now, planned)
      : await beginRegenerate(deps, threadId, model, assistantMessageId, now, planned)
  } catch (error) {
    if (error instanceof AppError) throw error
    if (String((error as { cause?: unknown }).cause ?? error).includes('UNIQUE')) fail('REPLY_IN_PROGRESS')
    throw error
  }
}

/**
 * A send is one batch (one round trip, one commit, no interactive transaction): it needs no
 * answer from the database before it writes. The user message follows the last message of the
 * branch shown. An edit-and-resend adds a version of the last user message of that branch: the
 * new one follows what the old one followed, and the old one with what came after it leaves the
 * branch (kept as an earlier version), only while no reply streams; otherwise the insert of the
 * streaming message fails on the index and the whole batch is rolled back. Its statements are
 * prepared once (`bound`): built anew each time, they cost more than running them, before the
 * first token.
 */
async function beginSend(deps: AppDeps, threadId: string, mode: Extract<BeginMode, { kind: 'send' }>, model: string, assistantId: string, now: Date, planned?: Planned | null): Promise<Begun> {
  const statements = sendStatements(deps.db)
  const values = { threadId, userId: crypto.randomUUID(), assistantId, content: mode.content, model, now, ...replyLease(deps, now.getTime()) }
  const checked = planned?.after !== undefined
  const user = bound(mode.replaceLast ? statements.insertUserVersion : statements.insertUser, values)
  const writes = [...(mode.replaceLast ? [bound(statements.leaveBranch, values)] : []), bound(statements.insertReply, values), bound(statements.touchThread, values)]
  // With a plan there is no abandoned reply to end (see beginReply), and the branch is not read back.
  const results = await commitTogether(deps, checked ? [user, ...writes] : [endAbandonedRepliesOf(deps, threadId, now), user, ...writes, bound(branchTurns(deps.db), values)])
  const begun = { userMessageId: values.userId }
  const [written] = results[checked ? 0 : 1] as Array<{ parentId: string | null }>
  if (checked && written?.parentId === planned!.after) return { ...begun, turns: planned!.turns, asPlanned: true }
  return { ...begun, turns: checked ? await turnsNow(deps, threadId) : turnsOf(results.at(-1) as BranchRow[]), asPlanned: false }
}

const placeholder = sql.placeholder
/** `now` where an update's types want a Date: Drizzle fills a placeholder in through the column's encoder, as it would the Date. */
const nowAsDate = placeholder('now') as unknown as Date

/** A send's statements (values: threadId, userId, assistantId, content, model, now, leaseOwner, leaseUntil). */
const sendStatements = preparedFor((db) => {
  const threadId = placeholder('threadId')
  const userId = placeholder('userId')
  const noReplyStreaming = sql`NOT EXISTS (SELECT 1 FROM messages WHERE thread_id = ${threadId} AND status = 'streaming')`
  // The branch's last user message before this send (the one an edit gives a new version of).
  const lastUser = (column: 'parent_id' | 'seq') =>
    sql`(SELECT ${sql.raw(column)} FROM messages WHERE thread_id = ${threadId} AND on_branch = 1 AND role = 'user' AND id <> ${userId} ORDER BY seq DESC LIMIT 1)`
  const userMessage = (parentId: SQL) =>
    db
      .insert(messages)
      .values({ id: userId, threadId, seq: nextSeq, parentId, role: 'user', content: placeholder('content'), status: 'complete', createdAt: placeholder('now'), updatedAt: placeholder('now'), shownAt: placeholder('now') })
      .returning({ parentId: messages.parentId })
      .prepare()
  return {
    insertUser: userMessage(sql`(SELECT id FROM messages WHERE thread_id = ${threadId} AND on_branch = 1 ORDER BY seq DESC LIMIT 1)`),
    insertUserVersion: userMessage(lastUser('parent_id')),
    // Never while a reply streams: a streaming reply stays on the branch shown (beginReply relies on it).
    leaveBranch: db
      .update(messages)
      .set({ onBranch: false })
      .where(and(sql`${messages.threadId} = ${threadId}`, eq(messages.onBranch, true), sql`${messages.id} <> ${userId}`, gte(messages.seq, lastUser('seq')), noReplyStreaming))
      .prepare(),
    insertReply: db
      .insert(messages)
      .values({
        id: placeholder('assistantId'), threadId, seq: nextSeq, parentId: userId, role: 'assistant', status: 'streaming', model: placeholder('model'),
        createdAt: placeholder('now'), updatedAt: placeholder('now'), shownAt: placeholder('now'), leaseOwner: placeholder('leaseOwner'), leaseUntil: placeholder('leaseUntil'),
      })
      .prepare(),
    touchThread: db.update(threads).set({ lastMessageAt: nowAsDate }).where(sql`${threads.id} = ${threadId}`).prepare(),
  }
})

/**
 * beginReply with the first model call on its way while the rows are written (decision 0085):
 * `start` is called with the history read beforehand. The writes decide: the call is kept when
 * they found the same history, cancelled otherwise (the tool loop then makes its own) or when
 * they refuse. `turns`: the history as the writes found it.
 */
export async function beginWithEarlyCall(deps: AppDeps, threadId: string, mode: BeginMode, model: string, start: (turns: Turn[]) => EarlyCall) {
  const assistantMessageId = crypto.randomUUID()
  // A failed read only means the call waits: the writes meet (and report) the same failure.
  const planned = await plannedHistory(deps, threadId, mode).catch(() => null)
  const early = planned && start(planned.turns)
  // The call's request leaves once its own steps (the gateway, the address check) have run; the
  // writes run synchronously on a local database file, so they wait for the next turn of the
  // loop (commitTogether: with the other replies begun in this turn, in one commit). By then a
  // provider at an address (or a name the resolver has cached) has the request and answers while
  // they commit; a name still being resolved goes on alongside them.
  try {
    const begun = await beginReply(deps, threadId, mode, model, assistantMessageId, planned)
    const firstCall = early && (begun.asPlanned || sameTurns(planned.turns, begun.turns)) ? early : (early?.cancel(), undefined)
    return { ...begun, assistantMessageId, firstCall }
  } catch (error) {
    early?.cancel()
    throw error
  }
}

/**
 * A new reply to the branch's last message: one batch, as a send is (an interactive transaction
 * cost a round of awaits and a query built anew for each of its steps, all before the first token
 * could leave). The reply to replace is read first; the batch writes the new reply only while the
 * old one is still the branch's last message and no reply streams in the chat, and moves the old
 * one off the branch only when the new one was written. So a send or another regenerate in between
 * leaves the chat as it was, and it is read again to answer why. The old reply stays as an earlier
 * version; one that failed without a word is deleted instead (there is nothing in it to go back
 * to). A reply whose process is gone is ended `interrupted` first and can then be replaced. The old
 * reply leaves the search index when the new one ends (decision 0096): its whole text, taken out
 * here, held back the first token. `replaced`: the reply to replace as the history read for the
 * early model call found it (plannedHistory); the batch checks it as it checks one read here, and
 * reading it again (all its columns, its whole text) held the batch back by as long as the batch
 * itself takes (decision 0118).
 */
async function beginRegenerate(deps: AppDeps, threadId: string, model: string, assistantId: string, now: Date, planned?: Planned | null): Promise<Begun> {
  const statements = regenerateStatements(deps.db)
  for (let attempt = 0; ; attempt++) {
    const known = attempt === 0 ? planned?.replaced : undefined
    const [last] = known ? [known] : await lastOfBranch(deps.db).all({ threadId })
    // Written after all (an earlier attempt's count said otherwise): the branch says what it answers.
    if (last?.id === assistantId) return { userMessageId: null, turns: await turnsNow(deps, threadId), asPlanned: false }
    if (last?.status === 'streaming' && !isAbandoned(deps, last, now.getTime())) throw new AppError('REPLY_IN_PROGRESS')
    if (!last || last.role !== 'assistant') throw new AppError('NOTHING_TO_REGENERATE')
    const emptyFailure = last.status === 'failed' && !last.content.trim() && !last.parts?.length
    const lease = replyLease(deps, now.getTime())
    const values = { threadId, assistantId, lastId: last.id, parentId: last.parentId, model, now, nowMs: now.getTime(), leaseOwner: lease.leaseOwner, leaseUntilMs: lease.leaseUntil.getTime() }
    const writes = [
      bound(statements.insertReply, values),
      bound(emptyFailure ? statements.deleteEmptyFailure : statements.leaveBranch, values),
      bound(statements.touchThread, values),
    ] as const
    // With a plan there is no abandoned reply to end (see beginReply), and the branch is not read back.
    const results = await commitTogether(deps, known ? writes : [endAbandonedRepliesOf(deps, threadId, now), ...writes, bound(branchTurns(deps.db), values)])
    if (known) {
      // Written only while the reply read is still the branch's last: then the history before it is the plan's.
      if ((results[0] as { rowsAffected: number }).rowsAffected === 1) return { userMessageId: null, turns: planned!.turns, asPlanned: true }
    } else {
      const branch = results.at(-1) as BranchRow[]
      if (branch.some((m) => m.id === assistantId)) return { userMessageId: null, turns: turnsOf(branch), asPlanned: false }
    }
    // The chat changed after it was read: read it again (it answers why, or may be replaced now).
    if (attempt === 2) throw new AppError('REPLY_IN_PROGRESS')
  }
}

/** A regenerate's statements (values: threadId, assistantId, lastId, parentId, model, now, nowMs, leaseOwner, leaseUntilMs). */
const regenerateStatements = preparedFor((db) => {
  const threadId = placeholder('threadId')
  const assistantId = placeholder('assistantId')
  const lastId = placeholder('lastId')
  const nowMs = placeholder('nowMs')
  const stillLast = sql`EXISTS (SELECT 1 FROM messages WHERE id = ${lastId} AND on_branch = 1 AND status <> 'streaming'
    AND id = (SELECT id FROM messages WHERE thread_id = ${threadId} AND on_branch = 1 ORDER BY seq DESC LIMIT 1))
    AND NOT EXISTS (SELECT 1 FROM messages WHERE thread_id = ${threadId} AND status = 'streaming')`
  const written = sql`EXISTS (SELECT 1 FROM messages WHERE id = ${assistantId})`
  return {
    insertReply: db.run(sql`INSERT INTO messages (id, thread_id, seq, parent_id, role, status, model, created_at, updated_at, shown_at, lease_owner, lease_until)
      SELECT ${assistantId}, ${threadId}, ${nextSeq}, ${placeholder('parentId')}, 'assistant', 'streaming', ${placeholder('model')}, ${nowMs}, ${nowMs}, ${nowMs}, ${placeholder('leaseOwner')}, ${placeholder('leaseUntilMs')}
      WHERE ${stillLast}`),
    deleteEmptyFailure: db.delete(messages).where(and(sql`${messages.id} = ${lastId}`, sql`${messages.status} = 'failed'`, written)).prepare(),
    // Only once the new reply was written, which stillLast allows only while no reply streams (beginReply relies on it).
    leaveBranch: db.update(messages).set({ onBranch: false }).where(and(sql`${messages.id} = ${lastId}`, written)).prepare(),
    touchThread: db.update(threads).set({ lastMessageAt: nowAsDate }).where(and(sql`${threads.id} = ${threadId}`, written)).prepare(),
  }
})

/** The messages of a chat's branch shown (value: threadId). */
const shownBranch = () => and(eq(messages.threadId, sql.placeholder('threadId')), eq(messages.onBranch, true))

/** The branch's last message, by a statement prepared once. */
const lastOfBranch = preparedFor((db) =>
  db
    .select()
    .from(messages)
    .where(shownBranch())
    .orderBy(desc(messages.seq))
    .limit(1)
    .prepare(),
)

/**
 * What a regenerate needs of the reply it replaces (the branch's last message, not streaming): its
 * text and `parts` only when it failed (whether a failure left anything to keep as a version).
 */
export type ReplacedReply = Pick<MessageRow, 'id' | 'parentId' | 'role' | 'status' | 'content' | 'leaseOwner' | 'leaseUntil' | 'updatedAt'> & { parts?: unknown[] }

/** What the model is sent of a chat: its messages in order, without failed or empty ones. */
export type Turn = Pick<MessageRow, 'role' | 'content'>

export const turnsOf = (history: Array<Pick<MessageRow, 'role' | 'content' | 'status'>>): Turn[] =>
  history.filter((m) => m.status !== 'failed' && m.content.trim()).map((m) => ({ role: m.role, content: m.content }))

/**
 * The history a reply will answer as read before anything is written (`turns`), so that the model
 * call can start while beginReply writes, and what the writes check to know the chat is still as
 * read: a send's `after`, the message its user message will follow (null in an empty chat); a
 * regenerate's `replaced`, the reply it replaces.
 */
export type Planned = { turns: Turn[]; after?: string | null; replaced?: ReplacedReply }

/**
 * The plan of a reply (`Planned`). Null where beginReply may refuse or first has to end a reply
 * (one still streaming, a regenerate without a reply to replace): the call then waits for the
 * writes, and they read the branch.
 */
export async function plannedHistory(deps: AppDeps, threadId: string, mode: BeginMode): Promise<Planned | null> {
  if (mode.kind === 'regenerate') {
    const branch = await branchToReplaceIn(deps.db).all({ threadId })
    const last = branch.at(-1)
    if (branch.some((m) => m.status === 'streaming') || last?.role !== 'assistant') return null
    const { failedParts, ...replaced } = last
    return { turns: turnsOf(branch.slice(0, -1)), replaced: { ...replaced, ...(failedParts !== null && { parts: JSON.parse(failedParts) as unknown[] }) } }
  }
  const branch = await branchTurns(deps.db).all({ threadId })
  if (branch.some((m) => m.status === 'streaming')) return null
  // An edit replaces the branch's last user message and what followed it.
  const lastUser = mode.replaceLast ? branch.findLastIndex((m) => m.role === 'user') : -1
  const kept = lastUser >= 0 ? branch.slice(0, lastUser) : branch
  // An edit's new version follows what the replaced message followed (nothing, where there is none).
  const after = mode.replaceLast && lastUser < 0 ? null : (kept.at(-1)?.id ?? null)
  return { turns: turnsOf([...kept, { role: 'user', content: mode.content, status: 'complete' }]), after }
}

/** The history of the branch shown, read now. */
const turnsNow = async (deps: AppDeps, threadId: string) => turnsOf(await branchTurns(deps.db).all({ threadId }))

const sameTurns = (a: Turn[], b: Turn[]) => a.length === b.length && a.every((m, i) => m.role === b[i]!.role && m.content === b[i]!.content)

/** The branch shown as the model is sent it, with the messages' ids, by a statement prepared once (value: threadId). */
const branchTurns = preparedFor((db) =>
  db
    .select({ id: messages.id, role: messages.role, content: messages.content, status: messages.status })
    .from(messages)
    .where(shownBranch())
    .orderBy(asc(messages.seq))
    .prepare(),
)

/**
 * The same for a regenerate, with what it needs of the branch's last message (`ReplacedReply`):
 * its text (empty in the row) and parts only when it failed. The model is not sent the reply it
 * replaces, and a long reply's text (30 KB for 5,000 tokens) made the read 46–72 µs longer before the
 * model call, cold between requests.
 */
const branchToReplaceIn = preparedFor((db) =>
  db
    .select({
      id: messages.id, parentId: messages.parentId, role: messages.role, status: messages.status,
      content: sql<string>`CASE WHEN ${messages.status} <> 'failed' AND ${messages.seq} = (SELECT max(seq) FROM messages WHERE thread_id = ${sql.placeholder('threadId')} AND on_branch = 1) THEN '' ELSE ${messages.content} END`,
      leaseOwner: messages.leaseOwner, leaseUntil: messages.leaseUntil, updatedAt: messages.updatedAt,
      failedParts: sql<string | null>`CASE WHEN ${messages.status} = 'failed' THEN ${messages.parts} END`,
    })
    .from(messages)
    .where(shownBranch())
    .orderBy(asc(messages.seq))
    .prepare(),
)

type BranchRow = { id: string; role: MessageRow['role']; content: string; status: MessageRow['status'] }

const nextSeq = sql`(SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE thread_id = ${placeholder('threadId')})`
