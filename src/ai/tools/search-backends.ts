import type { Config } from '../../lib/config'
import { ToolError } from './types'

export type SearchResult = { title: string; url: string; snippet: string }

/** One web search service, spoken to in its own JSON API. */
export type SearchBackend = {
  name: 'searxng' | 'brave' | 'tavily'
  search: (query: string, count: number, signal: AbortSignal) => Promise<SearchResult[]>
}

/** A search request that takes longer than this is given up. */
export const SEARCH_TIMEOUT_MS = 10_000
/** A search answer larger than this is not read. */
export const SEARCH_MAX_BYTES = 2 * 1024 * 1024

/**
 * The configured backend: SearXNG first (self-hosted, nothing leaves the operator's network
 * but the query), then Brave, then Tavily. None configured: undefined, and the tool is not offered.
 */
export function searchBackend(search: Config['search'], fetchFn: typeof fetch = fetch): SearchBackend | undefined {
  const get = (url: string, init: RequestInit, signal: AbortSignal) => request(fetchFn, url, init, signal)
  if (search.searxng) {
    const base = search.searxng.url.replace(/\/+$/, '')
    return {
      name: 'searxng',
      search: async (query, count, signal) => {
        const body = await get(`${base}/search?${new URLSearchParams({ q: query, format: 'json' })}`, {}, signal)
        return results(body?.results, count, (r) => ({ title: r.title, url: r.url, snippet: r.content }))
      },
    }
  }
  if (search.brave) {
    const { apiKey, baseUrl } = search.brave
    return {
      name: 'brave',
      search: async (query, count, signal) => {
        const url = `${baseUrl.replace(/\/+$/, '')}/res/v1/web/search?${new URLSearchParams({ q: query, count: String(count) })}`
        const body = await get(url, { headers: { accept: 'application/json', 'x-subscription-token': apiKey } }, signal)
        return results(body?.web?.results, count, (r) => ({ title: r.title, url: r.url, snippet: r.description }))
      },
    }
  }
  if (search.tavily) {
    const { apiKey, baseUrl } = search.tavily
    return {
      name: 'tavily',
      search: async (query, count, signal) => {
        const body = await get(
          `${baseUrl.replace(/\/+$/, '')}/search`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
            body: JSON.stringify({ api_key: apiKey, query, max_results: count }),
          },
          signal,
        )
        return results(body?.results, count, (r) => ({ title: r.title, url: r.url, snippet: r.content }))
      },
    }
  }
  return undefined
}

async function request(fetchFn: typeof fetch, url: string, init: RequestInit, signal: AbortSignal): Promise<any> {
  let response: Response
  try {
    response = await fetchFn(url, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]) })
  } catch (error) {
    if (signal.aborted) throw error
    throw new ToolError('The search service could not be reached. Try again later or answer without searching.')
  }
  if (response.status === 401 || response.status === 403) {
    throw new ToolError(`The search service refused the request (HTTP ${response.status}). Its settings need to be checked by an admin.`)
  }
  if (response.status === 429) throw new ToolError('The search service is receiving too many requests. Try again later.')
  if (!response.ok) throw new ToolError(`The search service answered with HTTP ${response.status}.`)
  try {
    return await response.json()
  } catch {
    throw new ToolError('The search service sent an answer that could not be read.')
  }
}

function results(list: unknown, count: number, pick: (r: any) => { title?: unknown; url?: unknown; snippet?: unknown }): SearchResult[] {
  if (!Array.isArray(list)) return []
  return list
    .map((r) => pick(r ?? {}))
    .filter((r): r is { title: unknown; url: string; snippet: unknown } => typeof r.url === 'string' && /^https?:\/\//i.test(r.url))
    .slice(0, count)
    .map((r) => ({ title: plain(r.title) || r.url, url: r.url, snippet: plain(r.snippet) }))
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' }

/** Brave marks matches with <strong>; the model gets plain text. */
function plain(value: unknown): string {
  if (typeof value !== 'string') return ''
  return value
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim()
}
