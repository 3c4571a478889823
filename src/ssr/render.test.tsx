import { describe, expect, test } from 'bun:test'
import { createApp } from '../app'
import { createTestApp, joinAsMember, enableOpenAiModels, registerOrg } from '../../tests/support/test-app'
import type { Logger } from '../lib/logger'
import { createApiClient } from '../../web/lib/api-client'
import { createI18n } from '../../web/lib/i18n'
import { createQueryClient } from '../../web/lib/query-client'
import { publicNamespaces } from '../../web/locales'
import { createAppRouter } from '../../web/router'
import { EARLY_CLICKS_SCRIPT } from './early-clicks'
import { createPageRenderer, pageStrings } from './render'

const assets = { js: '/build/entry-test.js', css: '/build/app-test.css', locales: { en: ['/build/strings-en.js'] } }
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36'
const BOT = 'curl/8.5.0'

/**
 * An in-process API that answers (401) only when released: it stands for loaders still running.
 * The first `free` requests answer at once.
 */
function heldApi({ free = 0 } = {}) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const asked: string[] = []
  const api = async (request: Request) => {
    asked.push(new URL(request.url).pathname)
    if (asked.length > free) await released
    return Response.json({ code: 'UNAUTHORIZED', message: 'Not signed in', status: 401 }, { status: 401 })
  }
  return { api, asked, release }
}

const page = (path: string, headers: Record<string, string>) =>
  new Request(`http://localhost${path}`, { headers: { 'accept-language': 'en', ...headers } })

/** Lets the event loop turn until `done` holds (a page's first render may first load its strings' modules), for 10 s at most; then the caller's assertion tells. */
async function turnsUntil(done: () => boolean) {
  for (const end = Date.now() + 10_000; !done() && Date.now() < end; ) await new Promise((resolve) => setImmediate(resolve))
}

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
    // The session lookup of /login's beforeLoad asks, and waits, after the head has left.
    await turnsUntil(() => held.asked.includes('/api/auth/me'))
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
    // The script that keeps clicks made before the page's script runs (decision 0134) is in the early head only.
    expect(first).toContain(EARLY_CLICKS_SCRIPT)
    expect(html.split(EARLY_CLICKS_SCRIPT)).toHaveLength(2)
  })

  test('a page without the early head carries the script for early clicks in its own head, once', async () => {
    const held = heldApi()
    held.release()
    const response = await render(page('/login', { 'user-agent': BOT }), held.api, 'n0nce')
    const html = await response.text()
    expect(html.split(EARLY_CLICKS_SCRIPT)).toHaveLength(2)
    expect(html.indexOf(EARLY_CLICKS_SCRIPT)).toBeLessThan(html.indexOf('</head>'))
  })

  test('a session that turns out to be gone redirects inside the page', async () => {
    // The head leaves before anything is read, the session (the member's language and theme) included.
    const held = heldApi({ free: 1 })
    const response = await render(page('/chat', { 'user-agent': BROWSER, cookie: 'kontor.session_token=expired.sig' }), held.api, 'n')
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toContain('<link rel="stylesheet" href="/build/app-test.css"/>')
    expect(held.asked).toEqual([])
    await turnsUntil(() => held.asked.length === 2)
    expect(held.asked).toEqual(['/api/auth/me', '/api/auth/me'])
    held.release()
    const html = await readAll(reader, first)
    expect(html).toContain('<meta http-equiv="refresh" content="0;url=/login?redirect=%2Fchat"/></head><body>')
    expect(html).toEndWith('</html>')
    expect(html.split(EARLY_CLICKS_SCRIPT)).toHaveLength(2)
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
      await turnsUntil(() => held.asked.length > 0 || settled)
      if (held.asked.length) expect(settled, path).toBe(false)
      held.release()
      const response = await pending
      expect(response.status, `${path} ${headers['user-agent']}`).toBe(status)
      await response.body?.cancel()
    }
  })
})

describe("a member's language and theme", () => {
  test("the account's win over this browser's cookie and storage, and the cookie is brought up to date", async () => {
    const t = await createTestApp()
    try {
      const client = t.client()
      await registerOrg(client)
      expect((await client.patch('/api/users/locale', { locale: 'en' })).status).toBe(200)
      expect((await client.patch('/api/users/theme', { theme: 'dark' })).status).toBe(200)
      const app = createApp(t.deps, { renderPage: createPageRenderer(assets) })
      const open = async (path: string, langCookie: string, userAgent = BROWSER) => {
        const response = await app.request(path, {
          headers: { cookie: `${client.cookieHeader()}; kontor-lang=${langCookie}`, 'user-agent': userAgent, 'accept-language': 'de' },
        })
        return { response, html: await response.text() }
      }
      // A page with the early head: the head leaves in the cookie's language, before the account is
      // read; the page's first script sets the account's language, its cookie and its theme.
      const early = await open('/chat', 'de')
      expect(early.response.status).toBe(200)
      expect(early.html).toStartWith('<!DOCTYPE html><html lang="de"')
      expect(early.html).toContain('d.lang="en";document.cookie="kontor-lang=en; path=/;')
      // The account's theme is stored before the page's script makes its class follow the stored theme.
      expect(early.html).toContain("localStorage.setItem('theme','dark')")
      expect(early.html.indexOf("localStorage.setItem('theme','dark')")).toBeLessThan(early.html.lastIndexOf("d.classList.toggle('dark',"))
      expect(early.html).toContain('>New Chat<')
      expect(early.html).not.toContain('Neuer Chat')
      expect(early.response.headers.get('set-cookie')).toBeNull()
      // A page that waits for its loaders is in the account's language from its first byte, and sets the cookie in its header.
      const waited = await open('/admin-settings/users', 'de')
      expect(waited.response.status).toBe(200)
      expect(waited.html).toStartWith('<!DOCTYPE html><html lang="en"')
      expect(waited.html).toContain("localStorage.setItem('theme','dark')")
      // Rendered with the administration screens' strings (the server loads them with the first such page).
      expect(waited.html).toContain('>Members<')
      expect(waited.response.headers.get('set-cookie')).toStartWith('kontor-lang=en; path=/;')
      for (const path of ['/chat', '/admin-settings/users']) {
        const current = await open(path, 'en')
        expect(current.html, path).toStartWith('<!DOCTYPE html><html lang="en"')
        expect(current.response.headers.get('set-cookie'), path).toBeNull()
      }
      // Once set back to light, the pages say so; the language follows the account for bots too.
      expect((await client.patch('/api/users/theme', { theme: 'light' })).status).toBe(200)
      const light = await open('/chat', 'de', BOT)
      expect(light.html).toContain("localStorage.setItem('theme','light')")
      expect(light.html).toContain('<html lang="en"')
    } finally {
      await t.close()
    }
  })

  test('signed out, the cookie decides and nothing is asked of the API before the head', async () => {
    const held = heldApi()
    const response = await createPageRenderer(assets)(page('/login', { 'user-agent': BROWSER, cookie: 'kontor-lang=de' }), held.api, 'n')
    const reader = response.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toStartWith('<!DOCTYPE html><html lang="de">')
    expect(first).not.toContain('localStorage.setItem')
    expect(response.headers.get('set-cookie')).toBeNull()
    held.release()
    await readAll(reader, first)
  })
})

describe('the API requests of one page', () => {
  test('read the session once, whatever the number of loaders; requests from outside read it each time', async () => {
    const t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-render', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } })
    try {
      const client = t.client()
      await registerOrg(client)
      await enableOpenAiModels(client, ['openai/gpt-4.1'])
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

describe("a page's loaders", () => {
  test('call the GET routes directly: no request of theirs passes the HTTP middleware, and their errors are the routes\' own', async () => {
    const t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-render', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } })
    try {
      const client = t.client()
      await registerOrg(client)
      await enableOpenAiModels(client, ['openai/gpt-4.1'])
      const thread = (await client.post('/api/threads', {})).body as { id: string }
      await client.patch(`/api/threads/${thread.id}`, { title: 'Quarterly figures' })
      // The app writes one access line for every request that passes its middleware to the API.
      const lines: Array<{ msg: string; path?: unknown }> = []
      const logger: Logger = { debug: () => {}, info: (msg, f) => lines.push({ msg, path: f?.path }), warn: () => {}, error: () => {}, child: () => logger }
      t.deps.logger = logger
      const app = createApp(t.deps, { renderPage: createPageRenderer(assets) })
      const apiLines = () => lines.filter((l) => l.msg === 'request' && String(l.path).startsWith('/api/'))

      const headers = { cookie: client.cookieHeader(), 'user-agent': BOT, 'accept-language': 'en' }
      const chat = await app.request('/chat', { headers })
      expect(chat.status).toBe(200)
      // The user, the system and the models were loaded, all without an HTTP request.
      expect(await chat.text()).toContain('aria-label="Model: GPT-4.1"')
      const open = await app.request(`/chats/${thread.id}`, { headers })
      expect(open.status).toBe(200)
      expect(await open.text()).toContain('Quarterly figures')
      expect(apiLines()).toEqual([])

      // A chat that does not exist: the route's 404 reaches the loader, which shows the page for it.
      const missing = await app.request(`/chats/${crypto.randomUUID()}`, { headers })
      expect(missing.status).toBe(404)
      expect(apiLines()).toEqual([])

      // A request from outside still passes the middleware.
      expect((await app.request('/api/threads', { headers: { cookie: client.cookieHeader() } })).status).toBe(200)
      expect(apiLines().map((l) => l.path)).toEqual(['/api/threads'])
    } finally {
      await t.close()
    }
  })
})

describe("a page's API calls", () => {
  test('answer as the same requests through HTTP do: signed out, as a member and as an admin, also with bad params and queries', async () => {
    const t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-render', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } })
    try {
      const admin = t.client()
      await registerOrg(admin)
      await enableOpenAiModels(admin, ['openai/gpt-4.1'])
      const thread = (await admin.post('/api/threads', {})).body as { id: string }
      const { client: member } = await joinAsMember(t, admin)
      // The function the page renderer is given to call the API (the direct route caller, app.fetch behind it).
      let pageApi!: (request: Request) => Promise<Response>
      const app = createApp(t.deps, {
        renderPage: async (_request, api) => {
          pageApi = api
          return new Response('')
        },
      })
      await app.request('/chat')
      const paths = [
        '/api/auth/me', '/api', '/api/models/permitted/language-models', '/api/models/default', '/api/models/embedding/enabled',
        '/api/threads?limit=20', '/api/threads?limit=abc', `/api/threads/${thread.id}`, '/api/threads/not-a-chat', `/api/threads/${crypto.randomUUID()}`,
        '/api/users', '/api/organization', '/api/prompts?search=x', '/api/agents', '/api/usage/own?from=yesterday', '/api/invites/preview?token=nope',
      ]
      for (const [who, cookie] of [['signed out', ''], ['member', member.cookieHeader()], ['admin', admin.cookieHeader()]] as const) {
        for (const path of paths) {
          const headers = cookie ? { cookie } : undefined
          const direct = await pageApi(new Request(`http://localhost${path}`, { headers }))
          const http = await app.request(path, { headers })
          const body = async (r: Response) => JSON.parse((await r.text()).replace(/"requestId":"[^"]+"/, '"requestId":"…"'))
          expect({ who, path, status: direct.status, body: await body(direct) }).toEqual({ who, path, status: http.status, body: await body(http) })
          // Only the request through HTTP passed the app's middleware (it sets X-Request-Id on every answer).
          expect([direct.headers.has('x-request-id'), http.headers.has('x-request-id')]).toEqual([false, true])
        }
      }
    } finally {
      await t.close()
    }
  })
})

describe('a form sent before the page hydrated', () => {
  test('opens its page again (303 to the same address, its token kept); the API keeps its JSON answers', async () => {
    const t = await createTestApp()
    try {
      const app = createApp(t.deps, { renderPage: createPageRenderer(assets) })
      const form = { method: 'POST', headers: { origin: 'http://localhost:3000', 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40b.test&password=secret' }
      for (const path of ['/register', '/accept-invite?token=abc', '/password/reset?token=abc']) {
        const res = await app.request(path, form)
        expect(res.status, path).toBe(303)
        expect(res.headers.get('location'), path).toBe(path)
      }
      // Never to another host, however the path starts.
      for (const path of ['//evil.example/x', '/\\evil.example/x']) {
        const res = await app.request(`http://localhost${path}`, form)
        expect(res.status, path).toBe(303)
        expect(res.headers.get('location'), path).toBe('/evil.example/x')
      }
      for (const path of ['/api/nothing', '/v1/nothing', '/mcp']) {
        const res = await app.request(path, form)
        expect(res.status, path).not.toBe(303)
        expect(res.headers.get('content-type'), path).toContain('json')
      }
    } finally {
      await t.close()
    }
  })
})

test('a page is rendered with the parts of the strings its browser holds before it hydrates it: the public ones and the error messages, the signed-in screens\' under the app\'s layout, the settings\' on their pages', async () => {
  const router = createAppRouter({ queryClient: createQueryClient(), api: createApiClient(() => Promise.reject(new Error('matching only'))), i18n: createI18n('en', {}) })
  const namespacesOf = async (path: string) => Object.keys(await pageStrings('de', new Set(router.getMatchedRoutes(path)[0].map((route) => route.id as string)))).sort()
  const everyPage = [...publicNamespaces, 'errors'].sort()
  expect(await namespacesOf('/login')).toEqual(everyPage)
  expect(await namespacesOf('/no-such-page')).toEqual(everyPage)
  for (const path of ['/chat', '/settings/account', '/admin-settings/users', '/two-factor/setup']) {
    const namespaces = await namespacesOf(path)
    expect(namespaces, path).toEqual(expect.arrayContaining([...everyPage, 'chat', 'prompts']))
    expect(namespaces.includes('members'), path).toBe(path !== '/chat')
  }
})

test("the router gives a page back where it was scrolled, but not a chat's, whose list scrolls itself (to its newest message or a search result)", () => {
  const router = createAppRouter({ queryClient: createQueryClient(), api: createApiClient(() => Promise.reject(new Error('matching only'))), i18n: createI18n('en', {}) })
  const restores = router.options.scrollRestoration
  if (typeof restores !== 'function') throw new Error('scrollRestoration is not decided per page')
  const at = (pathname: string) => restores({ location: router.buildLocation({ to: pathname }) })
  expect(at('/chats/9f2c1d7e-0000-4000-8000-000000000000')).toBe(false)
  for (const path of ['/chat', '/prompts', '/settings/general', '/shared/abc']) expect(at(path), path).toBe(true)
})
