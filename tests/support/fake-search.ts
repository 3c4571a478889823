/**
 * A fake web search service for tests: a real HTTP server on 127.0.0.1 speaking the JSON APIs of
 * SearXNG (GET <base>/search?q=…&format=json, under any path prefix), Brave (GET /res/v1/web/search)
 * and Tavily (POST /search). Every answer is fixed; what it was asked is logged. A query containing
 * `[held]` is answered only once `release()` is called, so a test can watch a search in progress.
 */

export type SearchRequest = { path: string; query: Record<string, string>; headers: Record<string, string>; body: any }

/** The SearXNG results: one that is not a web page (dropped by the backend) and one with an HTML entity. */
export const SEARXNG_RESULTS = [
  { title: 'Kontor – the workspace', url: 'https://kontor.example/', content: 'Chat with models.' },
  { title: 'Not a web page', url: 'javascript:alert(1)', content: 'dropped' },
  { title: 'Kontor docs', url: 'https://docs.kontor.example/tools', content: 'Tools &amp; more' },
]

export function startFakeSearch(options: { port?: number } = {}) {
  const asked: SearchRequest[] = []
  const state = { failWith: undefined as number | undefined }
  const held: Array<() => void> = []
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
        return Response.json({ query: url.searchParams.get('q'), results: SEARXNG_RESULTS })
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
    stop: () => server.stop(true),
  }
}

export type FakeSearch = ReturnType<typeof startFakeSearch>
