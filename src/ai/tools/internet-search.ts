import { z } from 'zod'
import { outboundFetch, serverPolicy } from '../../lib/outbound'
import { SEARCH_MAX_BYTES, searchBackend, type SearchResult } from './search-backends'
import { defineTool } from './types'

const parameters = z.object({
  query: z.string().trim().min(1).max(400).describe('The search query, as you would type it into a search engine.'),
  count: z.number().int().min(1).max(10).optional().describe('How many results to return (1–10, default 5).'),
})

/**
 * `internet_search`: numbered results (title, URL, snippet) from the configured backend
 * (SearXNG, Brave or Tavily); offered only when one is configured.
 */
export const internetSearchTool = defineTool({
  name: 'internet_search',
  description:
    'Search the web for current information. Returns numbered results with title, URL and snippet. ' +
    'Cite every result you use as a markdown link to its URL, e.g. [Title](https://example.com/page). ' +
    'To read a result in full, call website_content with its URL.',
  parameters,
  available: ({ deps }) => searchBackend(deps.config.search) !== undefined,
  run: async (args, { deps, signal }) => {
    const { searxng, brave, tavily } = deps.config.search
    const backend = searchBackend(deps.config.search, outboundFetch(serverPolicy(deps, searxng?.url, brave?.baseUrl, tavily?.baseUrl), { maxBytes: SEARCH_MAX_BYTES }))!
    const results = await backend.search(args.query, args.count ?? 5, signal)
    return { content: formatResults(args.query, results), data: { results } }
  },
})

/** The results as the model reads them: numbered, each with its URL, and how to cite them. */
export function formatResults(query: string, results: SearchResult[]) {
  if (!results.length) return `No results for "${query}". Try other words, or answer from what you know and say so.`
  const lines = [`Search results for "${query}":`, '']
  for (const [i, r] of results.entries()) {
    lines.push(`[${i + 1}] ${r.title}`, `URL: ${r.url}`)
    if (r.snippet) lines.push(r.snippet)
    lines.push('')
  }
  lines.push('Cite the results you use as markdown links to their URLs, e.g. [Title](URL).')
  return lines.join('\n')
}
