/**
 * A fake web search service for tests: a real HTTP server on 127.0.0.1 speaking the JSON APIs of
 * SearXNG (GET <base>/search?q=…&format=json, under any path prefix), Brave (GET /res/v1/web/search)
 * and Tavily (POST /search). Every answer is fixed unless a test gave SearXNG's results for a query
 * (`give`); what it was asked is logged. A query containing `[held]` is answered only once
 * `release()` is called, so a test can watch a search in progress. It also serves the HTML pages a
 * test puts there (`putPage`, GET /pages/<name>), for website_content, and any other document
 * a test wants fetched from an address of its choosing (e.g. a self-hosted endpoint's model list).
 */

export type SearchRequest = { path: string; query: Record<string, string>; headers: Record<string, string>; body: any }

/** One result in SearXNG's JSON. */
export type SearxngResult = { title: string; url: string; content: string }

/** The SearXNG results: one that is not a web page (dropped by the backend) and one with an HTML entity. */
export const SEARXNG_RESULTS: SearxngResult[] = [
  { title: 'Kontor – the workspace', url: 'https://kontor.example/', content: 'Chat with models.' },
  { title: 'Not a web page', url: 'javascript:alert(1)', content: 'dropped' },
  { title: 'Kontor docs', url: 'https://docs.kontor.example/tools', content: 'Tools &amp; more' },
]

export function startFakeSearch(options: { port?: number } = {}) {
  const asked: SearchRequest[] = []
  const state = { failWith: undefined as number | undefined }
  const held: Array<() => void> = []
  const given = new Map<string, SearxngResult[]>()
  const pages = new Map<string, { body: string; type: string }>()
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: options.port ?? 0,
    async fetch(req) {
      const url = new URL(req.url)
      const body = req.method === 'POST' ? await req.json().catch(() => undefined) : undefined
      asked.push({ path: `${req.method} ${url.pathname}`, query: Object.fromEntries(url.searchParams), headers: Object.fromEntries(req.headers), body })
      if ((url.searchParams.get('q') ?? body?.query ?? '').includes('[held]')) await new Promise<void>((resolve) => held.push(resolve))
      if (state.failWith) return new Response('{"error":"nope"}', { status: state.failWith })
      if (req.method === 'GET' && url.pathname.endsWith('/search') && url.searchParams.get('format') === 'json') {
        const query = url.searchParams.get('q') ?? ''
        return Response.json({ query, results: given.get(query) ?? SEARXNG_RESULTS })
      }
      if (req.method === 'GET' && url.pathname.startsWith('/pages/')) {
        const page = pages.get(decodeURIComponent(url.pathname.slice('/pages/'.length)))
        if (page) return new Response(page.body, { headers: { 'content-type': page.type } })
      }
      if (url.pathname === '/res/v1/web/search') {
        return Response.json({
          type: 'search',
          web: { results: [{ title: 'Brave <strong>Kontor</strong>', url: 'https://brave.example/kontor', description: 'Found by <strong>Brave</strong>.' }] },
        })
      }
      if (url.pathname === '/search' && req.method === 'POST') {
        return Response.json({ query: body?.query, results: [{ title: 'Tavily result', url: 'https://tavily.example/a', content: 'From Tavily.', score: 0.9 }] })
      }
      return new Response('no route', { status: 404 })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    /** Every request, oldest first. */
    asked,
    /** Answer every request with this HTTP status until it is unset. */
    set failWith(status: number | undefined) {
      state.failWith = status
    },
    /** Answers the held searches; returns how many there were. */
    release: () => {
      const waiting = held.splice(0)
      waiting.forEach((resolve) => resolve())
      return waiting.length
    },
    /** SearXNG answers `query` with these results (instead of SEARXNG_RESULTS). */
    give: (query: string, results: SearxngResult[]) => void given.set(query, results),
    /** Serves `body` (a web page unless `type` says otherwise) under /pages/<name>; returns its address. */
    putPage: (name: string, body: string, type = 'text/html; charset=utf-8') => {
      pages.set(name, { body, type })
      return `http://127.0.0.1:${server.port}/pages/${name.split('/').map(encodeURIComponent).join('/')}`
    },
    stop: () => server.stop(true),
  }
}

export type FakeSearch = ReturnType<typeof startFakeSearch>
