import { and, eq } from 'drizzle-orm'
import { messages } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { findOwnThread } from '../sources/access'
import { isStreaming } from '../threads/access'
import { liveReplies } from './reply-relay'

/**
 * Stops a streaming reply, from any tab and through any process: the request is written to the
 * reply's row, which the process writing it reads on its next write tick (reply-writer.ts); a
 * reply running in this process stops at once. What streamed is kept as `stopped`; every client
 * following it gets that end. A reply that has already ended is left as it is.
 */
export async function stopReply(deps: AppDeps, caller: SessionUser, threadId: string, messageId: string) {
  const thread = await findOwnThread(deps, caller, threadId)
  const ofThread = and(eq(messages.id, messageId), eq(messages.threadId, thread.id), eq(messages.role, 'assistant'))
  const asked = await deps.db
    .update(messages)
    .set({ stopRequestedAt: new Date() })
    .where(and(ofThread, isStreaming))
    .returning({ id: messages.id })
  if (!asked.length && !(await deps.db.query.messages.findFirst({ columns: { id: true }, where: ofThread }))) fail('MESSAGE_NOT_FOUND')
  liveReplies(deps).get(messageId)?.abort.abort(new DOMException('Stopped', 'AbortError'))
}
