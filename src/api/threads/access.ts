import { and, eq, inArray, or, sql } from 'drizzle-orm'
import { bound, preparedFor } from '../../../db/client'
import { messages, replyChunks, streamingReplies, type threads } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { findAgent } from '../agents/access'
import { usableLanguageModel } from '../models/access'
import type { StoredMessageView } from './schema'

type ThreadRow = typeof threads.$inferSelect
type MessageRow = typeof messages.$inferSelect

/** The thread lookups other domains need (chat, export). */

/** A message as the API answers it. */
export const toMessageView = (m: MessageRow): StoredMessageView => ({
  id: m.id,
  role: m.role,
  content: m.content,
  reasoning: m.reasoning,
  parts: m.parts,
  status: m.status,
  errorCode: m.errorCode,
  model: m.model,
  usage: m.inputTokens === null ? null : { inputTokens: m.inputTokens, outputTokens: m.outputTokens ?? 0 },
  createdAt: m.createdAt.toISOString(),
})

/** The model a thread's next reply uses: its agent's (which wins), else its own. */
export async function replyModel(deps: AppDeps, caller: SessionUser, thread: ThreadRow) {
  const agent = thread.agentId ? await findAgent(deps, caller, thread.agentId) : null
  const modelId = agent ? agent.modelId : thread.modelId
  if (!modelId) fail('NO_MODEL_FOUND')
  try {
    return { model: await usableLanguageModel(deps, caller, modelId), agent }
  } catch {
    // The model was unpermitted (or its provider went away) since the thread or agent chose it.
    return fail('NO_MODEL_FOUND')
  }
}

/*
 * Reply leases (docs/decisions/0032-interrupted-replies.md). A streaming reply belongs to the
 * process writing it for as long as its lease holds; that process renews the lease with every
 * write, at least every 10 s (src/api/chat/reply-writer.ts). A reply whose process is gone is
 * ended `interrupted` by whichever process finds it: at start, and when its thread is read or
 * answered. The lease lives in the database, so this holds for any number of processes.
 */

/** How long a reply's lease holds without a write: three missed heartbeats. */
export const REPLY_LEASE_MS = 30_000

/** The lease columns of a reply this process writes at `now`. */
export const replyLease = (deps: AppDeps, now = Date.now()) => ({ leaseOwner: deps.instance.owner, leaseUntil: new Date(now + REPLY_LEASE_MS) })

/**
 * Whether a streaming reply's process is gone: its lease ran out, or it was taken in this
 * process's slot by an earlier start (only one live process holds a slot, and this one does).
 */
export function isAbandoned(deps: AppDeps, m: Pick<MessageRow, 'status' | 'leaseUntil' | 'leaseOwner' | 'updatedAt'>, now = Date.now()) {
  if (m.status !== 'streaming') return false
  // Replies written before leases existed count from their last write.
  const until = m.leaseUntil?.getTime() ?? m.updatedAt.getTime() + REPLY_LEASE_MS
  const { slot, owner } = deps.instance
  return until < now || (slot !== undefined && m.leaseOwner !== owner && m.leaseOwner?.startsWith(`${slot}/`) === true)
}

/**
 * A reply still streaming, as SQL with its value in the text. Where the query planner weighs the
 * partial index of streaming replies (`messages_one_streaming_idx`), a bound value makes SQLite
 * prepare the statement anew at every run, and an update of `messages` then compiles its triggers
 * each time (about 0.1 ms at every reply's beginning; decision 0099). One shared fragment: never
 * changed in place, and for the table `messages` itself, not an alias.
 */
export const isStreaming = sql`${messages.status} = 'streaming'`

/**
 * `isAbandoned` as SQL, for updates that find such replies themselves, with the values of
 * `abandonedValues` (or placeholders of those names, for a statement prepared once). Outside a
 * slot `slotPrefix` is null, and the test of the owner's slot is never true.
 */
function abandoned(v: Record<keyof ReturnType<typeof abandonedValues>, unknown>) {
  return and(
    isStreaming,
    or(
      sql`coalesce(${messages.leaseUntil}, ${messages.updatedAt} + ${REPLY_LEASE_MS}) < ${v.nowMs}`,
      and(sql`${messages.leaseOwner} <> ${v.owner}`, sql`substr(${messages.leaseOwner}, 1, length(${v.slotPrefix})) = ${v.slotPrefix}`),
    ),
  )
}

const abandonedValues = (deps: AppDeps, now: Date) => ({
  nowMs: now.getTime(),
  owner: deps.instance.owner,
  slotPrefix: deps.instance.slot === undefined ? null : `${deps.instance.slot}/`,
})

/** The update that ends a thread's (or every thread's) abandoned replies; `now` is a Date or a placeholder. */
const endAbandoned = (db: AppDeps['db'], threadId: unknown, now: unknown, v: Parameters<typeof abandoned>[0]) =>
  // The appended parts join the reply's own text; its status marks its number ended (a trigger),
  // and the parts go later with those of other ended replies (decision 0137).
  db
    .update(messages)
    .set({ status: 'interrupted', updatedAt: now as Date, content: appended('content'), reasoning: appended('reasoning') })
    .where(and(threadId === undefined ? undefined : eq(messages.threadId, threadId as string), abandoned(v)))
    .returning({ id: messages.id })

/**
 * Ends as `interrupted` the replies of a thread (or of every thread) whose process is gone; what
 * streamed is kept. Returns an update to run or batch.
 */
export function endAbandonedReplies(deps: AppDeps, threadId?: string, now = new Date()) {
  return endAbandoned(deps.db, threadId, now, abandonedValues(deps, now))
}

/** endAbandonedReplies for one thread, as an item of a batch whose SQL is built once (a reply's beginning). */
export const endAbandonedRepliesOf = (deps: AppDeps, threadId: string, now: Date) =>
  bound(endAbandonedInThread(deps.db), { threadId, now, ...abandonedValues(deps, now) })

const endAbandonedInThread = preparedFor((db) =>
  endAbandoned(db, sql.placeholder('threadId'), sql.placeholder('now'), {
    nowMs: sql.placeholder('nowMs'),
    owner: sql.placeholder('owner'),
    slotPrefix: sql.placeholder('slotPrefix'),
  }).prepare(),
)

/*
 * What a streaming reply said since its row was last written whole is in reply_chunks, appended
 * in order under the reply's number (streaming_replies; src/api/chat/reply-writer.ts): its text
 * is the row's followed by those parts. Once it stops streaming its row holds the whole text, and
 * its number is marked ended until its parts go (decision 0137): no read joins those.
 */

/** A column of the message being updated, followed by its appended parts (SQL). */
const appended = (column: 'content' | 'reasoning') =>
  // An ordered subquery rather than group_concat(… ORDER BY …), which libSQL's server cannot parse.
  sql.raw(
    `${column} || coalesce((SELECT group_concat(part, '') FROM (SELECT c.${column} AS part FROM streaming_replies s JOIN reply_chunks c ON c.reply_n = s.n WHERE s.message_id = messages.id AND s.ended = 0 ORDER BY c.seq)), '')`,
  )

/** The appended parts of a thread's streaming replies, in order (a query to batch with the messages). */
export function appendedText(deps: AppDeps, threadId: string) {
  return deps.db
    .select({ messageId: streamingReplies.messageId, content: replyChunks.content, reasoning: replyChunks.reasoning })
    .from(streamingReplies)
    .innerJoin(replyChunks, eq(replyChunks.replyN, streamingReplies.n))
    .where(and(inArray(streamingReplies.messageId, deps.db.select({ id: messages.id }).from(messages).where(and(eq(messages.threadId, threadId), isStreaming))), eq(streamingReplies.ended, false)))
    .orderBy(streamingReplies.messageId, replyChunks.seq)
}

/** Messages with the appended parts of their streaming replies joined to their text. */
export function withAppendedText<M extends Pick<MessageRow, 'id' | 'status' | 'content' | 'reasoning'>>(rows: M[], parts: { messageId: string; content: string; reasoning: string }[]): M[] {
  if (!parts.length) return rows
  return rows.map((m) => {
    if (m.status !== 'streaming') return m
    const own = parts.filter((p) => p.messageId === m.id)
    return own.length ? { ...m, content: m.content + own.map((p) => p.content).join(''), reasoning: m.reasoning + own.map((p) => p.reasoning).join('') } : m
  })
}
