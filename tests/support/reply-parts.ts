import { and, eq } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { replyChunks, streamingReplies } from '../../db/schema'

/** The number a streaming reply's appended parts are kept under (decision 0116); undefined once it stopped streaming. */
export const replyNumber = async (db: Database, messageId: string): Promise<number | undefined> =>
  (await db.select({ n: streamingReplies.n }).from(streamingReplies).where(and(eq(streamingReplies.messageId, messageId), eq(streamingReplies.ended, false))))[0]?.n

/** A streaming reply's appended parts, in order. */
export const replyParts = (db: Database, messageId: string) =>
  db
    .select({ seq: replyChunks.seq, content: replyChunks.content, reasoning: replyChunks.reasoning })
    .from(replyChunks)
    .innerJoin(streamingReplies, eq(streamingReplies.n, replyChunks.replyN))
    .where(and(eq(streamingReplies.messageId, messageId), eq(streamingReplies.ended, false)))
    .orderBy(replyChunks.seq)
