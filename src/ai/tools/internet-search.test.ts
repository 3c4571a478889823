import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { startFakeSearch, type FakeSearch } from '../../../tests/support/fake-search'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, registerOrg } from '../../../tests/support/test-app'
import { parseConfig } from '../../lib/config'
import { formatResults } from './internet-search'
import { searchBackend } from './search-backends'
import { ToolError } from './types'

/** One local server speaking the JSON shapes of SearXNG, Brave and Tavily; it logs what it was asked. */
let search: FakeSearch
let base: string
let asked: FakeSearch['asked']

beforeAll(() => {
  search = startFakeSearch()
  base = search.url
  asked = search.asked
})
afterAll(() => search.stop())
beforeEach(() => {
  asked.length = 0
  search.failWith = undefined
})

const config = (env: Record<string, string>) => parseConfig({ KONTOR_SECRET: 'x'.repeat(32), ...env }).search
const signal = () => AbortSignal.timeout(5000)

describe('search backends', () => {
  test('SearXNG: GET /search?q=…&format=json; only http(s) results, entities decoded', async () => {
    const backend = searchBackend(config({ SEARXNG_URL: `${base}/searxng/` }))!
    expect(backend.name).toBe('searxng')
    const results = await backend.search('kontor tools', 5, signal())
    expect(asked[0]).toMatchObject({ path: 'GET /searxng/search', query: { q: 'kontor tools', format: 'json' } })
    expect(results).toEqual([
      { title: 'Kontor – the workspace', url: 'https://kontor.example/', snippet: 'Chat with models.' },
      { title: 'Kontor docs', url: 'https://docs.kontor.example/tools', snippet: 'Tools & more' },
    ])
    expect(await backend.search('kontor', 1, signal())).toHaveLength(1)
  })

  test('Brave: the key as X-Subscription-Token, the count asked for, markup removed', async () => {
    const backend = searchBackend(config({ BRAVE_API_KEY: 'brave-key', BRAVE_BASE_URL: base }))!
    expect(backend.name).toBe('brave')
    const results = await backend.search('kontor', 3, signal())
    expect(asked[0]).toMatchObject({ path: 'GET /res/v1/web/search', query: { q: 'kontor', count: '3' } })
    expect(asked[0]!.headers['x-subscription-token']).toBe('brave-key')
    expect(results).toEqual([{ title: 'Brave Kontor', url: 'https://brave.example/kontor', snippet: 'Found by Brave.' }])
  })

  test('Tavily: POST /search with api_key, query and max_results', async () => {
    const backend = searchBackend(config({ TAVILY_API_KEY: 'tvly-key', TAVILY_BASE_URL: base }))!
    expect(backend.name).toBe('tavily')
    const results = await backend.search('kontor', 4, signal())
    expect(asked[0]).toMatchObject({ path: 'POST /search', body: { api_key: 'tvly-key', query: 'kontor', max_results: 4 } })
    expect(results).toEqual([{ title: 'Tavily result', url: 'https://tavily.example/a', snippet: 'From Tavily.' }])
  })

  test('none configured: no backend; several: SearXNG first, then Brave', () => {
    expect(searchBackend(config({}))).toBeUndefined()
    expect(config({}).brave).toBeUndefined()
    const all = { SEARXNG_URL: base, BRAVE_API_KEY: 'b', TAVILY_API_KEY: 't' }
    expect(searchBackend(config(all))!.name).toBe('searxng')
    expect(searchBackend(config({ BRAVE_API_KEY: 'b', TAVILY_API_KEY: 't' }))!.name).toBe('brave')
    expect(config({ TAVILY_API_KEY: 't' }).tavily).toEqual({ apiKey: 't', baseUrl: 'https://api.tavily.com' })
  })

  test('failures become messages the model can act on', async () => {
    const backend = searchBackend(config({ BRAVE_API_KEY: 'wrong', BRAVE_BASE_URL: base }))!
    search.failWith = 401
    await expect(backend.search('x', 5, signal())).rejects.toThrow('The search service refused the request (HTTP 401).')
    search.failWith = 500
    await expect(backend.search('x', 5, signal())).rejects.toThrow('The search service answered with HTTP 500.')
    const down = searchBackend(config({ SEARXNG_URL: 'http://127.0.0.1:9' }))!
    const error = await down.search('x', 5, signal()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ToolError)
    expect((error as Error).message).toMatch(/could not be reached/)
  })

  test('results are numbered with their URLs, and the model is asked to cite them as markdown links', () => {
    const text = formatResults('kontor', [
      { title: 'A', url: 'https://a.example/', snippet: 'first' },
      { title: 'B', url: 'https://b.example/', snippet: '' },
    ])
    expect(text).toBe(
      'Search results for "kontor":\n\n[1] A\nURL: https://a.example/\nfirst\n\n[2] B\nURL: https://b.example/\n\n' +
        'Cite the results you use as markdown links to their URLs, e.g. [Title](URL).',
    )
    expect(formatResults('nothing', [])).toMatch(/^No results for "nothing"/)
  })
})

describe('internet_search in a chat', () => {
  let fake: FakeLlm
  beforeAll(async () => void (fake = await startFakeLlm()))
  afterAll(() => fake.close())

  test('offered when a backend is configured; its numbered results reach the model and the chat', async () => {
    const t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-s', OPENAI_BASE_URL: `${fake.url}/v1`, SEARXNG_URL: `${base}/searxng` } })
    try {
      const client = t.client()
      await registerOrg(client)
      await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
      await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
      const thread = (await client.post('/api/threads', {})).body
      fake.script({ toolCalls: [{ name: 'internet_search', arguments: { query: 'kontor' } }] }, { text: 'See [Kontor](https://kontor.example/).' })
      const cookie = client.cookieHeader()
      const res = await t.app.request(`/api/threads/${thread.id}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: BASE_URL },
        body: JSON.stringify({ content: 'What is Kontor?' }),
      })
      const events = await readSse(res)
      const result = events.find((e) => e.event === 'tool_result')!.data
      expect(result).toMatchObject({ name: 'internet_search', isError: false })
      expect(result.result).toContain('[1] Kontor – the workspace\nURL: https://kontor.example/')
      expect(result.data.results).toHaveLength(2)
      const chats = fake.requests.filter((r) => r.body?.stream)
      expect(chats[0]!.body.tools.map((x: { function: { name: string } }) => x.function.name)).toEqual(['internet_search', 'website_content', 'send_email'])
      const search = chats[0]!.body.tools[0].function
      expect(search.description).toContain('markdown link')
      expect(search.parameters).toMatchObject({ type: 'object', required: ['query'] })
      expect(chats[1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: result.result })
    } finally {
      await t.close()
    }
  })
})
