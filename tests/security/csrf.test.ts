/**
 * Cross-site request refusal (src/lib/cross-site.ts): a state-changing request whose Origin is
 * another origin than KONTOR_BASE_URL, or that the browser marks `Sec-Fetch-Site: cross-site`
 * (or `same-site` without Kontor's own Origin), is refused with 403 CSRF_REJECTED whatever its
 * content type, and changes nothing; what Kontor's own pages send, and requests from outside a
 * browser (neither header), go through. The matrix runs on a JSON POST, a PUT, a PATCH, a
 * DELETE, the multipart upload and the login.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE_URL, createTestApp, enableOpenAiModels, PASSWORD, registerOrg, type TestClient } from '../support/test-app'

let t: Awaited<ReturnType<typeof createTestApp>>
let admin: TestClient
let email: string
let threadId: string
let promptId: string
/** The prompt the DELETE requests aim at. */
let doomedId: string

beforeAll(async () => {
  // A chat model, so that a chat can be started; no call reaches the provider.
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-csrf', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } })
  admin = t.client()
  email = (await registerOrg(admin)).email
  await enableOpenAiModels(admin, ['openai/gpt-4.1'])
  threadId = (await admin.post('/api/threads', {})).body.id
  expect(threadId).toBeString()
  promptId = (await admin.post('/api/prompts', { title: 'Kept', content: 'Changed only by its owner.' })).body.id
  doomedId = (await admin.post('/api/prompts', { title: 'Doomed', content: 'Stays unless its owner deletes it.' })).body.id
})
afterAll(() => t.close())

const ORIGINS = {
  same: BASE_URL,
  other: 'https://evil.example',
  // Another origin of the same site: a sibling port (or subdomain) is not Kontor.
  sibling: 'http://localhost:3001',
  null: 'null',
  absent: undefined,
} as const
const FETCH_SITES = ['same-origin', 'same-site', 'cross-site', 'none', undefined] as const
const CONTENT_TYPES = ['json', 'form', 'text', 'multipart', 'none'] as const
type ContentType = (typeof CONTENT_TYPES)[number]
type OriginName = keyof typeof ORIGINS
type FetchSite = (typeof FETCH_SITES)[number]

/**
 * What goes through: Kontor's own origin with any Sec-Fetch-Site but cross-site, and requests
 * without Origin unless the browser says they came from another site. Everything else is refused.
 */
const ACCEPTED: Array<[OriginName, FetchSite]> = [
  ['same', 'same-origin'],
  ['same', 'same-site'],
  ['same', 'none'],
  ['same', undefined],
  ['absent', 'same-origin'],
  ['absent', 'none'],
  ['absent', undefined],
]
const accepted = (origin: OriginName, site: FetchSite) => ACCEPTED.some(([o, s]) => o === origin && s === site)

/** A body of each content type; the JSON one is what the route takes, carrying `marker`. */
function body(type: ContentType, json: Record<string, unknown>): { body?: BodyInit; contentType?: string } {
  switch (type) {
    case 'json':
      return { body: JSON.stringify(json), contentType: 'application/json' }
    case 'form':
      return { body: new URLSearchParams(Object.entries(json).map(([k, v]) => [k, String(v)])).toString(), contentType: 'application/x-www-form-urlencoded' }
    case 'text':
      return { body: JSON.stringify(json), contentType: 'text/plain' }
    case 'multipart': {
      const form = new FormData()
      for (const [k, v] of Object.entries(json)) form.set(k, String(v))
      form.set('file', new File(['hello'], 'notes.txt', { type: 'text/plain' }))
      // The runtime sets the multipart content type with its boundary.
      return { body: form }
    }
    case 'none':
      return {}
  }
}

type Route = {
  name: string
  method: string
  path: () => string
  /** The route's JSON body, carrying `marker` where the route stores something. */
  json: (marker: string) => Record<string, unknown>
  /** With the cookie of a signed-in member? The login is sent without one. */
  signedIn: boolean
  /** Whether anything a refused request sent (its `marker`) was stored or done. */
  changed: (marker: string) => Promise<boolean>
}

const MARK = 'Mallory'
const ROUTES: Route[] = [
  {
    name: 'POST /api/prompts (JSON)',
    method: 'POST',
    path: () => '/api/prompts',
    json: (marker) => ({ title: marker, content: 'A prompt.' }),
    signedIn: true,
    changed: async (marker) => (await admin.get('/api/prompts')).body.some((p: { title: string }) => p.title === marker),
  },
  {
    name: 'PUT /api/prompts/:id',
    method: 'PUT',
    path: () => `/api/prompts/${promptId}`,
    json: (marker) => ({ title: marker, content: 'Changed.' }),
    signedIn: true,
    changed: async (marker) => (await admin.get(`/api/prompts/${promptId}`)).body.title === marker,
  },
  {
    name: 'PATCH /api/users/name',
    method: 'PATCH',
    path: () => '/api/users/name',
    json: (marker) => ({ name: marker }),
    signedIn: true,
    changed: async (marker) => (await admin.get('/api/auth/me')).body.name === marker,
  },
  {
    name: 'DELETE /api/prompts/:id',
    method: 'DELETE',
    path: () => `/api/prompts/${doomedId}`,
    json: () => ({}),
    signedIn: true,
    changed: async () => (await admin.get(`/api/prompts/${doomedId}`)).status !== 200,
  },
  {
    name: 'POST /api/threads/:id/sources/file (multipart upload)',
    method: 'POST',
    path: () => `/api/threads/${threadId}/sources/file`,
    json: (marker) => ({ name: marker }),
    signedIn: true,
    changed: async () => {
      const files = await admin.get(`/api/threads/${threadId}/sources`)
      expect(files.status).toBe(200)
      return files.body.length > 0
    },
  },
  {
    name: 'POST /api/auth/login',
    method: 'POST',
    path: () => '/api/auth/login',
    json: () => ({ email, password: PASSWORD }),
    signedIn: false,
    // A refused login opens no session (checked on each answer below).
    changed: async () => false,
  },
]

let ip = 0
async function send(route: Route, type: ContentType, origin: OriginName, site: FetchSite, marker: string) {
  const { body: payload, contentType } = body(type, route.json(marker))
  const headers: Record<string, string> = {
    // Each request from its own address: the login's rate limit is not what this tests.
    'x-forwarded-for': `10.9.${Math.floor(++ip / 250)}.${ip % 250}`,
    ...(route.signedIn && { cookie: admin.cookieHeader() }),
    ...(contentType && { 'content-type': contentType }),
    ...(ORIGINS[origin] !== undefined && { origin: ORIGINS[origin] }),
    ...(site && { 'sec-fetch-site': site }),
  }
  const res = await t.app.request(route.path(), { method: route.method, headers, body: payload })
  const text = await res.text()
  return { status: res.status, code: (text.startsWith('{') ? JSON.parse(text).code : undefined) as string | undefined, cookies: res.headers.getSetCookie() }
}

describe.each(ROUTES)('$name', (route) => {
  test('is refused with 403 CSRF_REJECTED from another origin or site, whatever the content type, and nothing changes', async () => {
    let refused = 0
    for (const type of CONTENT_TYPES) {
      for (const origin of Object.keys(ORIGINS) as OriginName[]) {
        for (const site of FETCH_SITES) {
          if (accepted(origin, site)) continue
          const res = await send(route, type, origin, site, MARK)
          const what = `${type}, Origin ${origin}, Sec-Fetch-Site ${site ?? 'absent'}`
          expect({ what, status: res.status, code: res.code }).toEqual({ what, status: 403, code: 'CSRF_REJECTED' })
          expect(res.cookies, what).toEqual([])
          refused++
        }
      }
    }
    expect(refused).toBe(CONTENT_TYPES.length * (Object.keys(ORIGINS).length * FETCH_SITES.length - ACCEPTED.length))
    expect(await route.changed(MARK)).toBe(false)
  })

  test('goes through from Kontor’s own pages and from outside a browser, whatever the content type', async () => {
    for (const type of CONTENT_TYPES) {
      for (const [origin, site] of ACCEPTED) {
        const res = await send(route, type, origin, site, `Accepted ${type} ${origin} ${site}`)
        const what = `${type}, Origin ${origin}, Sec-Fetch-Site ${site ?? 'absent'}`
        expect(res.code, what).not.toBe('CSRF_REJECTED')
        expect(res.status, what).not.toBe(403)
      }
    }
  })
})

describe('what an accepted request does', () => {
  const own = { origin: 'same', site: 'same-origin' } as const

  test('the JSON routes do their work for a JSON body and refuse the other types (415)', async () => {
    for (const route of ROUTES.filter((r) => r.method !== 'DELETE' && !r.path().endsWith('/file'))) {
      const ok = await send(route, 'json', own.origin, own.site, `Own ${route.method}`)
      expect(ok.status, route.name).toBe(route.method === 'POST' && route.path() === '/api/prompts' ? 201 : 200)
      if (route.signedIn) expect(await route.changed(`Own ${route.method}`), route.name).toBe(true)
      else expect(ok.cookies.join(';'), route.name).toContain('session_token=')
      for (const type of ['form', 'text', 'multipart'] as const) {
        const res = await send(route, type, own.origin, own.site, 'x')
        expect({ route: route.name, type, status: res.status, code: res.code }).toEqual({ route: route.name, type, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
      }
    }
  })

  test('the upload reaches its service with a multipart body (no embedding model here: 409)', async () => {
    const upload = ROUTES.find((r) => r.path().endsWith('/file'))!
    const res = await send(upload, 'multipart', own.origin, own.site, 'Notes')
    expect({ status: res.status, code: res.code }).toEqual({ status: 409, code: 'EMBEDDING_MODEL_REQUIRED' })
  })

  test('a DELETE without Origin or Sec-Fetch-Site (an API client) deletes', async () => {
    const remove = ROUTES.find((r) => r.method === 'DELETE')!
    doomedId = (await admin.post('/api/prompts', { title: 'Doomed too', content: 'Deleted by an API client.' })).body.id
    expect((await send(remove, 'none', 'absent', undefined, '')).status).toBe(204)
    expect(await remove.changed('')).toBe(true)
  })

  test('reading is never refused, whatever the request says of its origin', async () => {
    const res = await t.app.request('/api/auth/me', { headers: { cookie: admin.cookieHeader(), origin: ORIGINS.other, 'sec-fetch-site': 'cross-site' } })
    expect(res.status).toBe(200)
  })
})
