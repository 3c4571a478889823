import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createTestApp, createClient } from '../tests/support/test-app'
import { sql } from 'drizzle-orm'
import { createApp } from './app'
import type { Logger } from './lib/logger'

// bunfig's [test] timeout is not read by bun test; password hashing is slow on a busy machine.
setDefaultTimeout(20_000)

type Entry = { level: string; msg: string; fields: Record<string, unknown> }

/** A logger that keeps what it is told, so that a test can read the server log. */
function recordingLogger(entries: Entry[], base: Record<string, unknown> = {}): Logger {
  const write = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    entries.push({ level, msg, fields: { ...base, ...fields } })
  }
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields) => recordingLogger(entries, { ...base, ...fields }),
  }
}

let t: Awaited<ReturnType<typeof createTestApp>>
const logs: Entry[] = []
let app: ReturnType<typeof createApp>
beforeAll(async () => {
  t = await createTestApp()
  app = createApp({ ...t.deps, logger: recordingLogger(logs) })
  // Added after createApp: Hono lets routes be registered until the first request.
  app.get('/boom', () => {
    throw new Error('connection to 10.0.0.5 refused: password=swordfish')
  })
})
afterAll(() => t.close())

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('unexpected exceptions', () => {
  test('answer 500 INTERNAL_ERROR with a request id and nothing internal', async () => {
    const res = await createClient(app).get('/boom')
    expect(res.status).toBe(500)
    const requestId = res.headers.get('x-request-id')!
    expect(requestId).toMatch(uuid)
    expect(res.body).toEqual({ code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', status: 500, requestId })
    const raw = JSON.stringify(res.body)
    expect(raw).not.toContain('swordfish')
    expect(raw).not.toContain('stack')
    expect(raw).not.toContain('.ts')
  })

  test('are logged with the request id, method, path and the error', async () => {
    const res = await createClient(app).get('/boom', { 'x-request-id': 'trace-abc-123' })
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123')
    expect(res.body.requestId).toBe('trace-abc-123')
    const entry = logs.find((e) => e.fields.requestId === 'trace-abc-123')
    expect(entry).toMatchObject({ level: 'error', msg: 'unhandled error', fields: { method: 'GET', path: '/boom' } })
    expect((entry!.fields.error as Error).message).toContain('swordfish')
  })

  test('a database that has gone away is 503 SERVICE_UNAVAILABLE, logged with the request id, not a 500', async () => {
    const broken = await createTestApp()
    const entries: Entry[] = []
    const brokenApp = createApp({ ...broken.deps, logger: recordingLogger(entries) })
    broken.deps.db.$client.close()
    const res = await createClient(brokenApp).post('/api/auth/login', { email: 'a@acme.test', password: 'Secret123' })
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached.', status: 503 })
    expect(res.headers.get('retry-after')).toBe('5')
    const logged = entries.find((e) => e.fields.requestId === res.headers.get('x-request-id') && e.level === 'error')
    expect(logged).toMatchObject({ msg: 'database unreachable', fields: { method: 'POST', path: '/api/auth/login' } })
    const ready = await createClient(brokenApp).get('/api/ready')
    expect(ready.status).toBe(503)
    expect(ready.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached.', status: 503 })
    await broken.close().catch(() => {})
  })
})

describe('not found and wrong method', () => {
  test('an unknown /api path is 404 NOT_FOUND', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['POST', '/api/users/nope'],
      ['GET', '/api/auth/me/extra'],
    ] as const) {
      const res = await t.client().request(method, path, method === 'POST' ? {} : undefined)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'Not Found', status: 404 })
    }
  })

  test('a wrong method on a known path answers in the error shape', async () => {
    for (const [method, path] of [
      ['GET', '/api/auth/login'],
      ['DELETE', '/api/auth/register'],
      ['PUT', '/api/auth/me'],
    ] as const) {
      // A bodiless non-GET without Origin is refused by the CSRF check first, as a cross-site form post would be.
      const res = await t.client().request(method, path, undefined, { origin: 'http://localhost:3000' })
      expect([404, 405]).toContain(res.status)
      expect(res.body).toMatchObject({ code: expect.stringMatching(/^(NOT_FOUND|METHOD_NOT_ALLOWED)$/), status: res.status })
      expect(typeof res.body.message).toBe('string')
    }
  })

  test('a path outside /api is 404 in the error shape when no pages are served', async () => {
    const res = await t.client().get('/no-such-page')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'Not Found', status: 404 })
  })
})

describe('X-Request-Id', () => {
  test('is on every response: success, client error and server error', async () => {
    const client = createClient(app)
    const responses = [await client.get('/api'), await client.get('/api/auth/me'), await client.get('/api/nope'), await client.get('/boom')]
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 500])
    for (const res of responses) expect(res.headers.get('x-request-id')).toMatch(uuid)
    expect(new Set(responses.map((r) => r.headers.get('x-request-id'))).size).toBe(4)
  })

  test('is on the answers of the OpenAI-compatible API, SCIM and the MCP server too (each loaded with its first request)', async () => {
    const responses = [
      await app.request('/v1/models', { headers: { 'x-request-id': 'v1-call' } }),
      await app.request('/scim/v2/Users', { headers: { 'x-request-id': 'scim-call' } }),
      await app.request('/mcp', { method: 'POST', headers: { 'x-request-id': 'mcp-call', 'content-type': 'application/json' }, body: '{}' }),
    ]
    expect(responses.map((r) => r.status)).toEqual([401, 401, 401])
    expect(responses.map((r) => r.headers.get('x-request-id'))).toEqual(['v1-call', 'scim-call', 'mcp-call'])
  })

  test('keeps a caller-supplied id, cut to 64 characters', async () => {
    const res = await t.client().get('/api', { 'x-request-id': 'x'.repeat(100) })
    expect(res.headers.get('x-request-id')).toBe('x'.repeat(64))
  })
})

describe('client errors keep the shape', () => {
  test('401 and validation errors carry code, message, status and fields', async () => {
    const unauth = await t.client().patch('/api/users/name', { name: 'X' })
    expect(unauth.body).toEqual({ code: 'UNAUTHORIZED', message: 'You need to sign in.', status: 401 })
    const invalid = await t.client().post('/api/auth/login', { email: 'nope', password: '' })
    expect(invalid.status).toBe(400)
    expect(invalid.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Some fields are invalid.',
      status: 400,
      fields: { email: 'Please enter a valid email address', password: 'Password is required' },
    })
  })
})

test('/api/ready is 503 until every migration is applied', async () => {
  const t = await createTestApp()
  try {
    expect((await t.client().get('/api/ready')).status).toBe(200)
    await t.deps.db.run(sql`DELETE FROM __drizzle_migrations WHERE rowid = (SELECT max(rowid) FROM __drizzle_migrations)`)
    const res = await t.client().get('/api/ready')
    expect(res.status).toBe(503)
    expect(res.body.message).toBe('Database migrations are not applied yet.')
  } finally {
    await t.close()
  }
})
