import { z } from 'zod'
import { readableText } from './readable-text'
import { FETCH_LIMITS, fetchPublicUrl, type SafeFetchOptions } from './safe-fetch'
import { defineTool, ToolError } from './types'

const parameters = z.object({
  url: z.string().trim().min(1).max(2000).describe('The full http(s) address of the page or PDF to read.'),
})

/**
 * Reads a page's text for the model: fetched with `fetchPublicUrl` (public addresses only,
 * 5 redirects, 5 s, 2 MB), then made readable (HTML as markdown, plain text, PDF by page).
 */
export async function websiteContent(url: string, options: SafeFetchOptions) {
  const page = await fetchPublicUrl(url, options)
  const { title, text } = await readableText(page)
  if (!text.trim()) throw new ToolError('The page was fetched but contains no readable text.')
  const lines = [title ? `# ${title}` : '', `Source: ${page.url}`, '', text]
  if (page.truncated) lines.push('', `[The page is larger than ${FETCH_LIMITS.maxBytes / 1024 / 1024} MB; only its beginning was read.]`)
  return { title, url: page.url, content: lines.filter((l, i) => i > 0 || l).join('\n') }
}

/** `website_content`: the readable text of a web page or PDF, for reading search results or links the user gives. */
export const websiteContentTool = defineTool({
  name: 'website_content',
  description:
    'Fetch a web page or PDF by its URL and return its readable text (as markdown). Use it to read a page the user ' +
    'links to or a search result in full. Only public http(s) addresses can be fetched. Cite the page as a markdown link to its URL.',
  parameters,
  run: async (args, { deps, signal }) => {
    const page = await websiteContent(args.url, {
      resolveHost: deps.resolveHost,
      allowedHosts: deps.config.fetchAllowedHosts,
      signal,
    })
    return { content: page.content, data: { url: page.url, title: page.title } }
  },
})
