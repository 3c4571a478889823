import { describe, expect, test } from 'bun:test'
import { createApp } from '../app'
import { createTestApp, registerOrg } from '../../tests/support/test-app'
import { createPageRenderer } from './render'

const assets = { js: '/build/entry-test.js', css: '/build/app-test.css', locales: { en: ['/build/strings-en.js'] } }
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36'
const BOT = 'curl/8.5.0'

/** An in-process API that answers only when released: it stands for loaders still running. */
function heldApi() {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const asked: string[] = []
  const api = async (request: Request) => {
    asked.push(new URL(request.url).pathname)
    await released
    return Response.json({ code: 'UNAUTHORIZED', message: 'Not signed in', status: 401 }, { status: 401 })
  }
  return { api, asked, release }
}

const page = (path: string, headers: Record<string, string>) =>
  new Request(`http://localhost${path}`, { headers: { 'accept-language': 'en', ...headers } })

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>, first = '') {
  let text = first
  const decoder = new TextDecoder()
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true })
  return text
}

describe('the early head', () => {
  const render = createPageRenderer(assets)

  test('leaves before the loaders answer, and the page follows as one document', async () => {
    const held = heldApi()
    const response = await render(page('/login', { 'user-agent': BROWSER }), held.api, 'n0nce')
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    // The session lookup of /login's beforeLoad is still waiting.
    expect(held.asked).toContain('/api/auth/me')
    expect(first).toStartWith('<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>')
    expect(first).toContain('<link rel="stylesheet" href="/build/app-test.css"/>')
    expect(first).toContain('<link rel="modulepreload" href="/build/entry-test.js"/>')
    expect(first).toContain('<link rel="modulepreload" href="/build/strings-en.js"/>')
    expect(first).toContain('<script nonce="n0nce">try{')
    held.release()
    const html = await readAll(reader, first)
    expect(html.match(/<html/g)).toHaveLength(1)
    expect(html.match(/<head>/g)).toHaveLength(1)
    expect(html.match(/<body/g)).toHaveLength(1)
    expect(html).toContain('<title>Kontor</title>')
    expect(html).toEndWith('</html>')
  })

  test('a session that turns out to be gone redirects inside the page', async () => {
    const held = heldApi()
    const response = await render(page('/chat', { 'user-agent': BROWSER, cookie: 'kontor.session_token=expired.sig' }), held.api, 'n')
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toContain('<link rel="stylesheet" href="/build/app-test.css"/>')
    held.release()
    const html = await readAll(reader, first)
    expect(html).toContain('<meta http-equiv="refresh" content="0;url=/login?redirect=%2Fchat"/></head><body>')
    expect(html).toEndWith('</html>')
  })

  test('bots, signed-out visitors of signed-in pages and pages that may be missing wait for the real status', async () => {
    const cases: Array<[string, Record<string, string>, number]> = [
      ['/chat', { 'user-agent': BOT, cookie: 'kontor.session_token=expired.sig' }, 307],
      ['/chat', { 'user-agent': BROWSER }, 307],
      ['/login', { 'user-agent': BOT }, 200],
      ['/chats/00000000-0000-4000-8000-000000000000', { 'user-agent': BROWSER, cookie: 'kontor.session_token=x.y' }, 307],
      ['/admin-settings/users', { 'user-agent': BROWSER, cookie: 'kontor.session_token=x.y' }, 307],
      ['/no-such-page', { 'user-agent': BROWSER }, 404],
    ]
    for (const [path, headers, status] of cases) {
      const held = heldApi()
      let settled = false
      const pending = render(page(path, headers), held.api, 'n').finally(() => (settled = true))
      // Let everything that does not wait for the API run; the answer must still be pending.
      for (let i = 0; i < 20; i++) await Promise.resolve()
      await new Promise((resolve) => setImmediate(resolve))
      if (held.asked.length) expect(settled, path).toBe(false)
      held.release()
      const response = await pending
      expect(response.status, `${path} ${headers['user-agent']}`).toBe(status)
      await response.body?.cancel()
    }
  })
})

describe('the API requests of one page', () => {
  test('read the session once, whatever the number of loaders; requests from outside read it each time', async () => {
    const t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-render', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } })
    try {
      const client = t.client()
      await registerOrg(client)
      await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
      await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
      const read = t.deps.readSession
      let reads = 0
      t.deps.readSession = (headers) => {
        reads++
        return read(headers)
      }
      const app = createApp(t.deps, { renderPage: createPageRenderer(assets) })
      const apiCalls: string[] = []
      const response = await app.request('/chat', { headers: { cookie: client.cookieHeader(), 'user-agent': BOT, 'accept-language': 'en' } })
      const html = await response.text()
      expect(response.status).toBe(200)
      expect(html).toContain('New Chat')
      // The page's loaders asked for the user, the system, the models and the chats: one session read.
      expect(reads).toBe(1)
      for (const path of ['/api/auth/me', '/api/threads']) {
        apiCalls.push(path)
        expect((await app.request(path, { headers: { cookie: client.cookieHeader() } })).status).toBe(200)
      }
      expect(reads).toBe(1 + apiCalls.length)
    } finally {
      await t.close()
    }
  })
})
