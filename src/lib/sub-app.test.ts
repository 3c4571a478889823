import { expect, test } from 'bun:test'
import { Hono, type Context } from 'hono'
import type { AppEnv } from './context'
import { AppError } from './errors'
import { mountOnFirstUse } from './sub-app'

/** A sub-app like /v1: it reads what the app's middleware set, and throws for /v1/boom. */
function subApp() {
  const sub = new Hono<AppEnv>()
  sub.get('/whoami', (c) => c.json({ requestId: c.get('requestId'), deps: (c.get('deps') as unknown as { name: string }).name, ip: (c.env as { ip?: string } | undefined)?.ip }))
  sub.get('/boom', () => {
    throw new AppError('FORBIDDEN')
  })
  sub.get('/challenge', (c) => {
    c.header('WWW-Authenticate', 'Bearer realm="kontor"')
    return c.json({ code: 'UNAUTHORIZED' }, 401)
  })
  sub.get('/crash', () => {
    throw new Error('a bug')
  })
  sub.post('/echo', async (c) => c.json(await c.req.json()))
  return sub
}

/** A sub-app like /scim/v2: its own error handler answers in its own format. */
function ownErrors() {
  const sub = new Hono<AppEnv>()
  sub.onError((_, c) => c.json({ schemas: ['scim-error'] }, 400))
  sub.get('/Users', () => {
    throw new Error('bad filter')
  })
  return sub
}

/** An app shaped like src/app.ts: middleware that sets the request's variables, onError, notFound, a page fallback. */
function appWith(load: () => Promise<Hono<AppEnv>>, paths = ['/*']) {
  const state = { loads: 0, failing: false }
  const app = new Hono<AppEnv>()
  app.use(async (c, next) => {
    c.set('requestId', c.req.header('x-request-id') ?? 'generated')
    c.set('deps', { name: 'the app\'s deps' } as never)
    // As src/app.ts: set before the answer exists, for Hono to put on the answer.
    c.header('X-Request-Id', c.get('requestId'))
    await next()
  })
  const onError = (error: Error, c: Context<AppEnv>) =>
    error instanceof AppError ? c.json(error.toBody(), error.status) : c.json({ code: 'INTERNAL_ERROR', message: error.message }, 500)
  const notFound = (c: Context<AppEnv>) => c.json({ code: 'NOT_FOUND' }, 404)
  app.onError(onError)
  mountOnFirstUse(
    app,
    '/v1',
    paths,
    async () => {
      state.loads++
      if (state.failing) throw new Error('the module failed to load')
      return load()
    },
    { onError, notFound },
  )
  app.get('*', (c) => c.text('a page'))
  app.notFound(notFound)
  return { app, state }
}

test('the sub-app loads with its first request, once, and reads what the app\'s middleware set and the server\'s env', async () => {
  const { app, state } = appWith(async () => subApp())
  expect(state.loads).toBe(0)
  // Requests at once share one load.
  const answers = await Promise.all([1, 2, 3].map((n) => app.request('/v1/whoami', { headers: { 'x-request-id': `r${n}` } }, { ip: '127.0.0.9' })))
  expect(state.loads).toBe(1)
  for (const [i, res] of answers.entries()) {
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ requestId: `r${i + 1}`, deps: 'the app\'s deps', ip: '127.0.0.9' })
    // The app's middleware also sees the answer on its way out.
    expect(res.headers.get('X-Request-Id')).toBe(`r${i + 1}`)
  }
  const echoed = await app.request('/v1/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
  expect(await echoed.json()).toEqual({ a: 1 })
  expect(state.loads).toBe(1)
})

test('what the sub-app throws is answered by the app\'s onError, unless the sub-app has its own; a path it has no route for by the app\'s notFound', async () => {
  const { app } = appWith(async () => subApp())
  // The sub-app's own status and headers reach the client beside the app's.
  const challenged = await app.request('/v1/challenge', { headers: { 'x-request-id': 'c1' } })
  expect(challenged.status).toBe(401)
  expect(challenged.headers.get('WWW-Authenticate')).toBe('Bearer realm="kontor"')
  expect(challenged.headers.get('content-type')).toStartWith('application/json')
  expect(challenged.headers.get('X-Request-Id')).toBe('c1')
  const refused = await app.request('/v1/boom')
  expect(refused.status).toBe(403)
  expect(refused.headers.get('X-Request-Id')).toBe('generated')
  expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN' })
  const crashed = await app.request('/v1/crash')
  expect(crashed.status).toBe(500)
  expect(await crashed.json()).toEqual({ code: 'INTERNAL_ERROR', message: 'a bug' })
  const unknown = await app.request('/v1/nothing-here')
  expect(unknown.status).toBe(404)
  expect(await unknown.json()).toEqual({ code: 'NOT_FOUND' })

  const scim = appWith(async () => ownErrors()).app
  const own = await scim.request('/v1/Users')
  expect(own.status).toBe(400)
  expect(await own.json()).toEqual({ schemas: ['scim-error'] })
})

test('only the paths named go to the sub-app: with [\'/\'] (like /mcp), /v1 does and /v1/other falls through to the app', async () => {
  const root = new Hono<AppEnv>()
  root.post('/', (c) => c.json({ rpc: true }))
  const { app, state } = appWith(async () => root, ['/'])
  const other = await app.request('/v1/other')
  expect(await other.text()).toBe('a page')
  expect(state.loads).toBe(0)
  const rpc = await app.request('/v1', { method: 'POST' })
  expect(await rpc.json()).toEqual({ rpc: true })
  expect(state.loads).toBe(1)
})

test('a load that fails is answered through the app\'s onError, and the next request loads the module again', async () => {
  const { app, state } = appWith(async () => subApp())
  state.failing = true
  const failed = await app.request('/v1/whoami')
  expect(failed.status).toBe(500)
  expect(await failed.json()).toEqual({ code: 'INTERNAL_ERROR', message: 'the module failed to load' })
  state.failing = false
  const answered = await app.request('/v1/whoami')
  expect(answered.status).toBe(200)
  expect(state.loads).toBe(2)
})
