import type { AppDeps } from '../../lib/context'
import type { SourceView } from './schema'
import { citationOf, hasReadyIn, sourceNeighbours, sourceQuery, type RetrievedChunk } from './retrieve'
export { uploadFile, type UploadTarget } from './upload'
export * from './rows'
export { retryFailedSource } from './retry'

/** The source lookups other domains need: threads (detail, deletion), members (removal), chat (tools), knowledge (uploads into collections). */

/**
 * A chat's files as the chat's tools see them (src/ai/tools/source-query.ts): whether any is ready,
 * and the passages that best match a query, each with the citation the model is to use. With them
 * the files of the knowledge collections the chat may search (read by the caller, access checked).
 * `threadFiles`: the chat's files as the caller reads them anyway (sourcesOfThread, before a
 * reply); where no collection is searched, whether one is ready is taken from them, one statement
 * fewer before the model call.
 */
export function chatSources(deps: AppDeps, threadId: string, collections: Promise<string[]> = Promise.resolve([]), threadFiles?: Promise<Array<Pick<SourceView, 'status'>>>) {
  return {
    hasReady: async () => {
      const collectionIds = await collections
      if (!collectionIds.length && threadFiles) return (await threadFiles).some((file) => file.status === 'ready')
      return hasReadyIn(deps.db, { threadId, collectionIds })
    },
    search: async (query: string, signal: AbortSignal) => {
      const result = await sourceQuery(deps, threadId, query, { signal, collectionIds: await collections })
      return { content: result.content, passages: result.chunks.map(passageOf) }
    },
    neighbours: async (passageId: string) => {
      const result = await sourceNeighbours(deps, threadId, passageId, { collectionIds: await collections })
      return { content: result.content, passages: result.chunks.map(passageOf) }
    },
  }
}

/** A passage as the chat shows it where a reply cites it. */
const passageOf = (c: RetrievedChunk) => ({
  sourceId: c.sourceId,
  sourceName: c.sourceName,
  collectionName: c.collectionName,
  page: c.page,
  pageEnd: c.pageEnd,
  recognised: c.recognised,
  headingPath: c.headingPath,
  citation: citationOf(c),
  text: c.content,
})
