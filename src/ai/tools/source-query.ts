import { z } from 'zod'
import { defineTool } from './types'

const parameters = z
  .object({
    query: z.string().trim().min(1).max(1000).optional().describe('What to look up: a question or keywords, preferably in the language of the files.'),
    passage: z
      .string()
      .trim()
      .min(3)
      .max(100)
      .optional()
      .describe('Instead of a query: the passage id of a passage from an earlier result, to read it with the passages right before and after it.'),
  })
  .refine((args) => !!args.query !== !!args.passage, 'Give either a query or a passage id')

/**
 * `source_query`: hybrid search (vectors + BM25) over the files attached to the chat and its
 * knowledge collections. Offered only when one of them has a processed file; answers with passages and the citation to use for each.
 */
export const sourceQueryTool = defineTool({
  name: 'source_query',
  description:
    'Search the files the user attached to this chat and the knowledge collections attached to it (PDF, Word, PowerPoint, ' +
    'Excel, e-mails, text, Markdown, CSV, HTML) and return the passages that best match the query, each with its file name and page (a slide counts as a page). ' +
    'With a passage id from an earlier result instead of a query, it returns that passage with the ones right before and after it. Use it whenever the ' +
    'question may be answered from these files. Cite every statement taken from a passage exactly as the result says, ' +
    'e.g. (file name, p. N).',
  parameters,
  available: ({ sources }) => sources.hasReady(),
  run: async (args, { sources, signal }) => {
    const { content, passages } = args.passage ? await sources.neighbours(args.passage) : await sources.search(args.query!, signal)
    return { content, data: { passages } }
  },
})
