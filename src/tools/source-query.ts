import { z } from 'zod'
import { citationOf, sourceQuery } from '../api/sources/retrieve'
import { hasReadySources } from '../api/sources/access'
import { defineTool } from './types'

const parameters = z.object({
  query: z.string().trim().min(1).max(1000).describe('What to look up: a question or keywords, preferably in the language of the files.'),
})

/**
 * `source_query`: hybrid search (vectors + BM25) over the files attached to the chat. Offered
 * only in chats with a processed file; answers with passages and the citation to use for each.
 */
export const sourceQueryTool = defineTool({
  name: 'source_query',
  description:
    'Search the files the user attached to this chat (PDF, Word, text, Markdown, CSV, HTML) and return the passages that ' +
    'best match the query, each with its file name and page. Use it whenever the question may be answered from these files. ' +
    'Cite every statement taken from a passage as (file name, p. N), exactly as the result says.',
  parameters,
  available: ({ deps, threadId }) => hasReadySources(deps, threadId),
  run: async (args, { deps, threadId, signal }) => {
    const result = await sourceQuery(deps, threadId, args.query, { signal })
    return {
      content: result.content,
      data: {
        passages: result.chunks.map((c) => ({
          sourceId: c.sourceId,
          sourceName: c.sourceName,
          page: c.page,
          pageEnd: c.pageEnd,
          headingPath: c.headingPath,
          citation: citationOf(c),
          // The chat shows a cited passage where the reply cites it.
          text: c.content,
        })),
      },
    }
  },
})
