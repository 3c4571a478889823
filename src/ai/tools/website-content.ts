import { z } from 'zod'
import { OutboundError, outboundFetch, type OutboundPolicy, type OutboundRefusal } from '../../lib/outbound'
import { readableText, type FetchedPage } from './readable-text'
import { defineTool, ToolError } from './types'

export const FETCH_LIMITS = { timeoutMs: 5_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5 }

export type SafeFetchOptions = {
  /** The runtime's fetch by default (tests replace it). */
  fetch?: typeof fetch
  /** Without a resolver (Workers), host names are judged by their name only. */
  resolveHost?: OutboundPolicy['resolveHost']
  /** Host names (lower case) fetched even though they are internal: KONTOR_FETCH_ALLOWED_HOSTS. */
  allowedHosts?: readonly string[]
  timeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
  signal?: AbortSignal
}

const REFUSALS: Record<OutboundRefusal, (host: string, limits: typeof FETCH_LIMITS) => string> = {
  'invalid-url': () => 'This is not a valid URL. Give a full address such as https://example.com/page.',
  protocol: () => 'Only http and https addresses can be fetched.',
  credentials: () => 'Addresses with a user name or password cannot be fetched.',
  'private-address': () => 'This address points to a private or internal network and cannot be fetched.',
  'host-not-found': (host) => `The host name ${host} could not be found.`,
  'too-many-redirects': (_, l) => `The page redirected more than ${l.maxRedirects} times; the redirects were not followed further.`,
  'redirect-without-location': () => 'The page redirected but did not say where to go.',
  'redirect-with-body': () => 'The page redirected to another site.',
  timeout: (_, l) => `The page did not answer within ${l.timeoutMs / 1000} seconds.`,
  'too-large': (_, l) => `The page is larger than ${l.maxBytes / 1024 / 1024} MB.`,
}

/**
 * Fetches a URL from the public internet only, through the server's guarded client
 * (src/lib/outbound.ts: checked after DNS and after every redirect, at most 5), within 5 s,
 * reading at most 2 MB of the body (the rest is never downloaded). Failures are ToolErrors whose
 * message tells the model what happened.
 */
export async function fetchPublicUrl(input: string, options: SafeFetchOptions = {}): Promise<FetchedPage> {
  const limits = { ...FETCH_LIMITS, ...definedOnly(options) }
  options.signal?.throwIfAborted()
  const get = outboundFetch(
    { resolveHost: options.resolveHost, allowedHosts: options.allowedHosts, transport: options.fetch },
    { timeoutMs: limits.timeoutMs, maxRedirects: limits.maxRedirects },
  )
  try {
    const response = await get(input, {
      signal: options.signal,
      headers: { 'user-agent': 'Kontor/1.0 (website_content tool)', accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.5' },
    })
    if (!response.ok) {
      await response.body?.cancel().catch(() => {})
      throw new ToolError(`The page answered with HTTP ${response.status}.`)
    }
    const { bytes, truncated } = await readCapped(response, limits.maxBytes)
    return { url: response.url, contentType: response.headers.get('content-type') ?? '', bytes, truncated }
  } catch (error) {
    if (error instanceof OutboundError) throw new ToolError(REFUSALS[error.reason](error.host ?? '', limits))
    if (options.signal?.aborted || error instanceof ToolError) throw error
    throw new ToolError('The page could not be fetched: the server could not be reached.')
  }
}

/** Reads the body up to `maxBytes` and stops there (the rest is never downloaded). */
async function readCapped(response: Response, maxBytes: number) {
  const reader = response.body?.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let truncated = false
  if (reader) {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        const room = maxBytes - size
        chunks.push(value.byteLength > room ? value.subarray(0, room) : value)
        size += Math.min(value.byteLength, room)
        if (value.byteLength > room) {
          truncated = true
          break
        }
      }
    } finally {
      reader.cancel().catch(() => {})
    }
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const c of chunks) {
    bytes.set(c, offset)
    offset += c.byteLength
  }
  return { bytes, truncated }
}

const definedOnly = (o: SafeFetchOptions) =>
  Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== undefined && k in FETCH_LIMITS)) as Partial<typeof FETCH_LIMITS>

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
