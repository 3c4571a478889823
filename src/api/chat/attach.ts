import { and, asc, eq } from 'drizzle-orm'
import { messages, replyChunks, streamingReplies, threads } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { ERRORS, fail, type ErrorCode } from '../../lib/errors'
import { findOwnThread } from '../sources/access'
import { endAbandonedReplies, isAbandoned } from '../threads/access'
import { liveReplies, replySubscriber } from './reply-relay'
import type { MessagePart, ReplyEvent } from './schema'
import { SSE_HEADERS } from './send'
import { parsePositionId, REPLY_START, type ReplyPosition } from './sse'

/** How often a reply that another process writes is read again while a client follows it (it writes about every 300 ms). */
const FOLLOW_EVERY_MS = 300

/** What the stream needs to know of a reply, at one moment. */
type Snapshot = { content: string; reasoning: string; parts: MessagePart[]; inputTokens: number | null; outputTokens: number | null }

/**
 * Attaches a client to a reply (after a reload, a lost connection, on another device): the frames
 * it has not seen yet (`lastEventId`, the position its last frame named), then the reply as it goes
 * on, then its end. A reply running in this process is followed as it runs; one that another
 * process writes is read from the database until it ends; an ended one is answered at once.
 */
export async function attachReply(deps: AppDeps, caller: SessionUser, threadId: string, messageId: string, lastEventId: string | undefined) {
  const thread = await findOwnThread(deps, caller, threadId)
  let seen = parsePositionId(lastEventId)
  const live = liveReplies(deps).get(messageId)
  if (live && !live.ended && live.start.threadId === thread.id) {
    // This process knows all the reply said: a position past it is not this reply's.
    if (beyond(seen, live.state)) seen = { ...REPLY_START }
    const body = live.follow(deps, seen, (push) => {
      push({ event: 'message_start', data: { ...live.start, userMessageId: null } })
      replay(live.state, { ...REPLY_START }, push)
      const usage = usageOf(live.state)
      if (usage) push(usage)
      // The client may have read the chat before it had this title (it reloaded while the reply
      // ended). The database's is the newest (a rename wins); the reply's own covers a title
      // written after the chat was read here.
      const title = thread.title ?? live.title ?? null
      if (title !== null) push({ event: 'title', data: { title } })
    })
    return new Response(body, { headers: SSE_HEADERS })
  }

  let reply = await readReply(deps, thread.id, messageId)
  if (!reply || reply.role !== 'assistant') return fail('MESSAGE_NOT_FOUND')
  if (isAbandoned(deps, reply)) reply = (await endAbandoned(deps, thread.id, messageId)) ?? reply
  if (reply.status !== 'streaming' && beyond(seen, reply)) seen = { ...REPLY_START }
  return new Response(followFromDatabase(deps, reply, seen), { headers: SSE_HEADERS })
}

type StoredReply = NonNullable<Awaited<ReturnType<typeof readReply>>>

function followFromDatabase(deps: AppDeps, first: StoredReply, seen: ReplyPosition) {
  let wake: (() => void) | undefined
  const { stream, subscriber } = replySubscriber(deps, seen, () => wake?.())
  const pause = () => new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FOLLOW_EVERY_MS)
    wake = () => {
      clearTimeout(timer)
      resolve()
    }
  })
  void (async () => {
    const at = { ...REPLY_START }
    subscriber.push({ event: 'message_start', data: { threadId: first.threadId, userMessageId: null, assistantMessageId: first.id, model: first.model ?? '' } })
    let reply: StoredReply | undefined = first
    let usage = ''
    while (reply) {
      replay(reply, at, subscriber.push)
      const now = usageOf(reply)
      if (now && JSON.stringify(now.data) !== usage) {
        usage = JSON.stringify(now.data)
        subscriber.push(now)
      }
      subscriber.flush()
      if (reply.status !== 'streaming' || subscriber.closed) break
      await pause()
      if (subscriber.closed) return
      reply = await readReply(deps, first.threadId, first.id)
      // Its process died while the client followed: it ends interrupted, whoever notices.
      if (reply && isAbandoned(deps, reply)) reply = await endAbandoned(deps, first.threadId, first.id)
    }
    if (reply) endFrames(reply).forEach(subscriber.push)
    subscriber.close()
  })().catch((error) => {
    deps.logger.warn('could not follow a reply', { messageId: first.id, error })
    subscriber.close()
  })
  return stream
}

/**
 * The events that take a client from `at` to what `reply` holds, in the order they happened: the
 * reasoning, then the text with each tool call where it was made (its offset) and its result
 * after it. `at` moves along.
 */
function replay(reply: Snapshot, at: ReplyPosition, push: (e: ReplyEvent) => void) {
  if (reply.reasoning.length > at.reasoning) push({ event: 'reasoning', data: { delta: reply.reasoning.slice(at.reasoning) } })
  at.reasoning = Math.max(at.reasoning, reply.reasoning.length)
  const text = (to: number) => {
    if (to > at.content) push({ event: 'text', data: { delta: reply.content.slice(at.content, to) } })
    at.content = Math.max(at.content, to)
  }
  for (; at.parts < reply.parts.length; at.parts++) {
    const part = reply.parts[at.parts]!
    if (part.type === 'tool_call') {
      text(Math.min(part.offset, reply.content.length))
      push({ event: 'tool_call', data: { id: part.id, name: part.name, arguments: part.arguments } })
    } else {
      const { type: _, ...result } = part
      push({ event: 'tool_result', data: result })
    }
  }
  text(reply.content.length)
}

const usageOf = (reply: Snapshot): ReplyEvent | null =>
  reply.inputTokens === null ? null : { event: 'usage', data: { inputTokens: reply.inputTokens, outputTokens: reply.outputTokens ?? 0 } }

/**
 * The frames that end a stream once the reply has ended: the error of a failed one, the chat's
 * title (the reply may have given it after the client read the chat: a reload while it ended), its status.
 */
function endFrames(reply: StoredReply): ReplyEvent[] {
  const code = (reply.errorCode && reply.errorCode in ERRORS ? reply.errorCode : 'PROVIDER_UNAVAILABLE') as ErrorCode
  const status = reply.status === 'streaming' ? 'interrupted' : reply.status
  return [
    ...(status === 'failed' ? [{ event: 'error' as const, data: { code, message: ERRORS[code][1] } }] : []),
    ...(reply.title !== null ? [{ event: 'title' as const, data: { title: reply.title } }] : []),
    { event: 'message_end', data: { status } },
  ]
}

const beyond = (seen: ReplyPosition, reply: Snapshot) =>
  seen.content > reply.content.length || seen.reasoning > reply.reasoning.length || seen.parts > reply.parts.length

/** A reply as the database has it now (its appended text joined, one snapshot), with its chat's title. */
async function readReply(deps: AppDeps, threadId: string, messageId: string) {
  const [rows, chunks, titles] = await deps.db.batch([
    deps.db.select().from(messages).where(and(eq(messages.id, messageId), eq(messages.threadId, threadId))),
    deps.db
      .select({ content: replyChunks.content, reasoning: replyChunks.reasoning })
      .from(replyChunks)
      .innerJoin(streamingReplies, eq(streamingReplies.n, replyChunks.replyN))
      .where(and(eq(streamingReplies.messageId, messageId), eq(streamingReplies.ended, false)))
      .orderBy(asc(replyChunks.seq)),
    deps.db.select({ title: threads.title }).from(threads).where(eq(threads.id, threadId)),
  ])
  const row = rows[0]
  if (!row) return undefined
  const parts = row.status === 'streaming' ? chunks : []
  return {
    ...row,
    content: row.content + parts.map((c) => c.content).join(''),
    reasoning: row.reasoning + parts.map((c) => c.reasoning).join(''),
    parts: row.parts as MessagePart[],
    title: titles[0]?.title ?? null,
  }
}

async function endAbandoned(deps: AppDeps, threadId: string, messageId: string) {
  await endAbandonedReplies(deps, threadId)
  return readReply(deps, threadId, messageId)
}
