import { and, asc, desc, eq, gte, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import { unionAll } from 'drizzle-orm/sqlite-core'
import { flatRows, preparedFor } from '../../../db/client'
import { messages, threads } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { findAgent } from '../agents/access'
import { resolveDefaultModel, usableLanguageModel } from '../models/access'
import { fileKeysOf, findOwnThread, removeFiles, sourcesOfThread } from '../sources/access'
import { appendedText, endAbandonedReplies, isAbandoned, replyModel, toMessageView, withAppendedText } from './access'
import type { ThreadSummary } from './schema'

type ThreadRow = typeof threads.$inferSelect
type MessageRow = typeof messages.$inferSelect

const summaryColumns = {
  id: threads.id,
  title: threads.title,
  modelId: threads.modelId,
  agentId: threads.agentId,
  createdAt: threads.createdAt,
  lastMessageAt: threads.lastMessageAt,
  pinnedAt: threads.pinnedAt,
}

export const toThreadSummary = (t: Pick<ThreadRow, keyof typeof summaryColumns>): ThreadSummary => ({
  id: t.id,
  title: t.title,
  modelId: t.modelId,
  agentId: t.agentId,
  createdAt: t.createdAt.toISOString(),
  lastMessageAt: t.lastMessageAt.toISOString(),
  pinnedAt: t.pinnedAt?.toISOString() ?? null,
})

/** Starts a chat with the given model, else the given agent, else the caller's default model. */
export async function createThread(deps: AppDeps, caller: SessionUser, input: { modelId?: string; agentId?: string }) {
  let modelId: string | null = null
  let agentId: string | null = null
  if (input.agentId) agentId = (await findAgent(deps, caller, input.agentId)).id
  if (input.modelId) modelId = (await usableLanguageModel(deps, caller, input.modelId)).id
  else if (!agentId) modelId = (await resolveDefaultModel(deps, caller)).id
  const [row] = await deps.db
    .insert(threads)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, userId: caller.id, modelId, agentId })
    .returning()
  return toThreadSummary(row!)
}

// The pages run through the chats that are not pinned; the pinned ones lead the first page, read
// with it in one statement: the pinned ones, and the newest of the others (a subquery, as a part
// of a compound select may not have its own order and limit).
const firstPage = preparedFor((db) => {
  const newest = db
    .select(summaryColumns)
    .from(threads)
    .where(and(eq(threads.userId, sql.placeholder('userId')), isNull(threads.pinnedAt)))
    .orderBy(desc(threads.lastMessageAt), desc(threads.id))
    .limit(sql.placeholder('limit'))
    .as('newest')
  return flatRows(unionAll(db.select(summaryColumns).from(threads).where(and(eq(threads.userId, sql.placeholder('userId')), isNotNull(threads.pinnedAt))), db.select().from(newest)).prepare())
})
// Placeholders are bound as they are (no column encoding): the cursor's time goes in as epoch ms.
const atParam = sql.placeholder('at')
const ownThreadsBefore = preparedFor((db) =>
  flatRows(
    db
      .select(summaryColumns)
      .from(threads)
      .where(
        and(
          eq(threads.userId, sql.placeholder('userId')),
          isNull(threads.pinnedAt),
          or(lt(threads.lastMessageAt, atParam), and(eq(threads.lastMessageAt, atParam), lt(threads.id, sql.placeholder('id')))),
        ),
      )
      .orderBy(desc(threads.lastMessageAt), desc(threads.id))
      .limit(sql.placeholder('limit'))
      .prepare(),
  ),
)

/** The caller's threads, most recent activity first, in pages; the first page starts with the pinned ones. */
export async function listThreads(deps: AppDeps, caller: SessionUser, page: { limit: number; cursor?: string }) {
  const cursor = decodeCursor(page.cursor)
  const limit = page.limit + 1
  const [pinned, rows] = cursor
    ? [[], await ownThreadsBefore(deps.db)({ userId: caller.id, at: cursor.at.getTime(), id: cursor.id, limit })]
    : splitPinned(await firstPage(deps.db)({ userId: caller.id, limit }))
  const more = rows.length > page.limit
  const shown = rows.slice(0, page.limit)
  const last = shown.at(-1)
  return {
    threads: [...pinned, ...shown].map(toThreadSummary),
    nextCursor: more && last ? `${last.lastMessageAt.getTime()}_${last.id}` : null,
  }
}

type SummaryRow = Pick<ThreadRow, keyof typeof summaryColumns>

/** The first page's rows as the pinned ones (last pinned first) and the others (newest first). */
function splitPinned(rows: SummaryRow[]): [SummaryRow[], SummaryRow[]] {
  const newestFirst = (a: Date, b: Date, x: SummaryRow, y: SummaryRow) => b.getTime() - a.getTime() || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0)
  const pinned = rows.filter((r) => r.pinnedAt).sort((x, y) => newestFirst(x.pinnedAt!, y.pinnedAt!, x, y))
  const others = rows.filter((r) => !r.pinnedAt).sort((x, y) => newestFirst(x.lastMessageAt, y.lastMessageAt, x, y))
  return [pinned, others]
}

function decodeCursor(cursor?: string) {
  const match = cursor?.match(/^(\d+)_(.+)$/)
  return match ? { at: new Date(Number(match[1])), id: match[2]! } : undefined
}

/** A thread with its messages; a reply whose process is gone is ended `interrupted` on the way. */
export async function getThread(deps: AppDeps, caller: SessionUser, id: string, page: { last?: number; through?: string } = {}) {
  const thread = await findOwnThread(deps, caller, id)
  const limit = page.last === undefined || page.through === undefined ? page.last : Math.max(page.last, await countFrom(deps, id, page.through, THROUGH_CONTEXT))
  const { rows, olderCursor } = await messagePage(deps, id, { limit })
  const resolved = await replyModel(deps, caller, thread).catch(() => null)
  const agent = thread.agentId ? await findAgent(deps, caller, thread.agentId).catch(() => null) : null
  return {
    ...toThreadSummary(thread),
    messages: rows,
    olderCursor,
    model: resolved?.model ?? null,
    agent: agent ? { id: agent.id, name: agent.name } : null,
    sources: await sourcesOfThread(deps, id),
  }
}

/**
 * Messages answered before the one a page reaches back to (`through`): the conversation that led
 * to it, and room above it, so that the list shows it without loading an older page at once.
 */
const THROUGH_CONTEXT = 20

/** How many messages of a thread's branch shown there are from the given one on, it included, plus `context` (0 when it is not on it). */
async function countFrom(deps: AppDeps, threadId: string, messageId: string, context: number) {
  const seq = deps.db.select({ seq: messages.seq }).from(messages).where(and(eq(messages.id, messageId), onBranchOf(threadId)))
  const count = await deps.db.$count(messages, and(onBranchOf(threadId), gte(messages.seq, seq)))
  return count && count + context
}

/** The page of a chat's messages before `before` (the `olderCursor` of the page shown), oldest first. */
export async function olderMessages(deps: AppDeps, caller: SessionUser, id: string, page: { before: number; limit: number }) {
  await findOwnThread(deps, caller, id)
  const { rows, olderCursor } = await messagePage(deps, id, page)
  return { messages: rows, olderCursor }
}

const onBranchOf = (threadId: string) => and(eq(messages.threadId, threadId), eq(messages.onBranch, true))

/**
 * The newest `limit` messages of a thread's branch shown before `before` (all when no limit),
 * oldest first, with their versions, in one read with the appended parts of a streaming reply
 * (src/api/chat/reply-writer.ts); replies whose writer died are ended on the way.
 */
async function messagePage(deps: AppDeps, threadId: string, page: { before?: number; limit?: number }) {
  const where = page.before === undefined ? onBranchOf(threadId) : and(onBranchOf(threadId), lt(messages.seq, page.before))
  const select = deps.db.select().from(messages).where(where)
  const query = page.limit === undefined ? select.orderBy(asc(messages.seq)) : select.orderBy(desc(messages.seq)).limit(page.limit + 1)
  const [found, parts, versioned] = await deps.db.batch([query, appendedText(deps, threadId), versionsOf(deps, threadId)])
  const more = page.limit !== undefined && found.length > page.limit
  const stored = page.limit === undefined ? found : found.slice(0, page.limit).reverse()
  let rows = withAppendedText(stored, parts)
  if (rows.some((m) => isAbandoned(deps, m))) {
    const ended = new Set((await endAbandonedReplies(deps, threadId)).map((m) => m.id))
    rows = rows.map((m) => (ended.has(m.id) ? { ...m, status: 'interrupted' } : m))
  }
  const siblings = new Map<string | null, { id: string }[]>()
  for (const v of versioned) siblings.set(v.parentId, [...(siblings.get(v.parentId) ?? []), v])
  const views = rows.map((m) => ({ ...toMessageView(m), parentId: m.parentId, siblingIds: siblings.get(m.parentId)?.map((v) => v.id) ?? [m.id] }))
  return { rows: views, olderCursor: more ? rows[0]!.seq : null }
}

/**
 * The messages of a thread that have versions (other messages following the same one), oldest
 * first: few, as users make them. Found from the messages off the branch shown, through its index
 * (decision 0130): of two or more versions of a message one at most is on the branch, so every
 * message with versions has one off it. Looking at every message of the chat for others that follow
 * the same one cost a read of the whole chat with every page.
 */
function versionsOf(deps: AppDeps, threadId: string) {
  return deps.db.all<{ id: string; parentId: string | null }>(sql`
    SELECT m.id, m.parent_id AS parentId
    FROM (SELECT DISTINCT parent_id FROM messages INDEXED BY messages_thread_branch_idx WHERE thread_id = ${threadId} AND on_branch = 0) AS off
    CROSS JOIN messages m
    WHERE m.thread_id = ${threadId} AND m.parent_id IS off.parent_id
      AND EXISTS (SELECT 1 FROM messages o WHERE o.thread_id = m.thread_id AND o.parent_id IS m.parent_id AND o.id <> m.id)
    ORDER BY m.seq`)
}

export async function deleteThread(deps: AppDeps, caller: SessionUser, id: string) {
  await findOwnThread(deps, caller, id)
  const files = await fileKeysOf(deps, { threadIds: [id] })
  // Sources, chunks and their FTS rows go with the thread (cascade); stored files are removed after.
  await deps.db.delete(threads).where(and(eq(threads.id, id), eq(threads.userId, caller.id)))
  await removeFiles(deps, files)
}

export async function setThreadModel(deps: AppDeps, caller: SessionUser, id: string, modelId: string) {
  await findOwnThread(deps, caller, id)
  const model = await usableLanguageModel(deps, caller, modelId)
  await deps.db.update(threads).set({ modelId: model.id }).where(eq(threads.id, id))
  return getThread(deps, caller, id)
}

/** Sets or removes the thread's agent; while set, the agent's model is used. */
export async function setThreadAgent(deps: AppDeps, caller: SessionUser, id: string, agentId: string | null) {
  const thread = await findOwnThread(deps, caller, id)
  if (agentId) await findAgent(deps, caller, agentId)
  const modelId = agentId || thread.modelId ? thread.modelId : await modelAfterAgent(deps, caller, thread)
  await deps.db.update(threads).set({ agentId, modelId }).where(eq(threads.id, id))
  return getThread(deps, caller, id)
}

/**
 * A chat started with an agent has no model of its own; without the agent it goes on with the
 * agent's model (the one it was using), else the caller's default, else none (the user picks one).
 */
async function modelAfterAgent(deps: AppDeps, caller: SessionUser, thread: ThreadRow) {
  const current = await replyModel(deps, caller, thread).catch(() => null)
  return current?.model.id ?? (await resolveDefaultModel(deps, caller).catch(() => null))?.id ?? null
}
