import { expect, test } from 'bun:test'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import type { AppEnv } from './context'
import { AppError } from './errors'
import { defineRoute, loadRoutes, mountRouteIndex, routeCaller, type RouteDef, type RouteDomain } from './route'

const routes: RouteDef[] = [
  defineRoute({ method: 'get', path: '/things/:id', summary: 'A thing', tag: 'Things', access: 'public', params: z.object({ id: z.string().max(3) }) }, async ({ params }) => ({ id: params.id })),
  defineRoute({ method: 'post', path: '/things', summary: 'A new thing', tag: 'Things', access: 'public', body: z.object({ name: z.string() }), status: 201 }, async ({ body }) => ({ name: body.name })),
]

/** A domain whose module "loads" by this function: counted, and failing while `failing` is set. */
function domain(keys = ['GET /things/:id', 'POST /things']) {
  const state = { loads: 0, failing: false }
  const d: RouteDomain = {
    routes: keys,
    load: async () => {
      state.loads++
      if (state.failing) throw new Error('the module failed to load')
      return routes
    },
  }
  return { d, state }
}

function appWith(d: RouteDomain) {
  const app = new Hono<AppEnv>()
  app.use((c, next) => {
    c.set('deps', { readSession: async () => null } as never)
    return next()
  })
  app.onError((error, c) => {
    if (error instanceof AppError) return c.json(error.toBody(), error.status)
    // The app's onError answers this one INVALID_JSON (src/app.ts).
    if (error instanceof HTTPException) return c.json({ code: 'HTTP', message: error.message }, error.status)
    return c.json({ code: 'INTERNAL_ERROR', message: String(error) }, 500)
  })
  mountRouteIndex(app, [d])
  return app
}

test('a domain\'s module loads with the first request to one of its routes, once; its routes answer as mounted before', async () => {
  const { d, state } = domain()
  const app = appWith(d)
  expect(state.loads).toBe(0)
  const got = await app.request('/things/abc')
  expect(state.loads).toBe(1)
  expect(await got.json()).toEqual({ id: 'abc' })
  const made = await app.request('/things', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x' }) })
  expect(made.status).toBe(201)
  expect(await made.json()).toEqual({ name: 'x' })
  expect(state.loads).toBe(1)
  // Validation, the media type and malformed JSON answer as before.
  const invalid = await app.request('/things/abcd')
  expect(await invalid.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { id: expect.any(String) } })
  const notJson = await app.request('/things', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })
  expect(await notJson.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' })
  const malformed = await app.request('/things', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' })
  expect(malformed.status).toBe(400)
  expect(await malformed.json()).toEqual({ code: 'HTTP', message: 'Malformed JSON in request body' })
  const noName = await app.request('/things', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  expect(await noName.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { name: expect.any(String) } })
})

test('first requests that arrive together share one load of the module', async () => {
  const { d, state } = domain()
  const app = appWith(d)
  const answers = await Promise.all([app.request('/things/a'), app.request('/things/b'), app.request('/things', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"n"}' })])
  expect(answers.map((a) => a.status)).toEqual([200, 200, 201])
  expect(state.loads).toBe(1)
})

test('a domain whose module fails to load answers its routes through onError, and other domains still answer', async () => {
  const broken = domain()
  broken.state.failing = true
  const other = domain(['GET /others/:id'])
  const app = new Hono<AppEnv>()
  app.use((c, next) => {
    c.set('deps', { readSession: async () => null } as never)
    return next()
  })
  app.onError((error, c) => c.json({ code: 'INTERNAL_ERROR', message: String(error) }, 500))
  other.d.load = async () => [defineRoute({ method: 'get', path: '/others/:id', summary: 's', tag: 't', access: 'public' }, async () => ({ ok: true }))]
  mountRouteIndex(app, [broken.d, other.d])
  const failed = await app.request('/things/a')
  expect(failed.status).toBe(500)
  expect(((await failed.json()) as { message: string }).message).toContain('the module failed to load')
  expect(await (await app.request('/others/x')).json()).toEqual({ ok: true })
  // The next request asks for the module again: a failure of the moment passes.
  broken.state.failing = false
  expect((await app.request('/things/a')).status).toBe(200)
  expect(broken.state.loads).toBe(2)
})

test('a route in the index that its domain no longer has fails clearly (the index is stale)', async () => {
  const { d } = domain(['GET /things/:id', 'POST /things', 'DELETE /things/:id'])
  const res = await appWith(d).request('/things/a', { method: 'DELETE' })
  expect(res.status).toBe(500)
  expect(((await res.json()) as { message: string }).message).toContain('route-index.gen.ts')
})

test('the page loaders\' caller loads the domain of the GET route it calls; loadRoutes loads every domain', async () => {
  const { d, state } = domain()
  const call = routeCaller([d], (error, c) => c.json({ message: String(error) }, 500))
  expect(state.loads).toBe(0)
  const vars = { deps: { readSession: async () => null } as never, requestId: 'r', logger: {} as never, env: {} }
  expect(await call(new Request('http://x/api/elsewhere'), vars)).toBeUndefined()
  const res = await call(new Request('http://x/api/things/abc'), vars)
  expect(await res!.json()).toEqual({ id: 'abc' })
  expect(state.loads).toBe(1)
  expect((await loadRoutes([d])).map((r) => r.path)).toEqual(['/things/:id', '/things'])
})

test('the page loaders\' caller answers through onError when the domain\'s module fails to load', async () => {
  const { d, state } = domain()
  state.failing = true
  const call = routeCaller([d], (error, c) => c.json({ message: String(error) }, 500))
  const vars = { deps: { readSession: async () => null } as never, requestId: 'r', logger: {} as never, env: {} }
  const res = await call(new Request('http://x/api/things/abc'), vars)
  expect(res!.status).toBe(500)
  expect(((await res!.json()) as { message: string }).message).toContain('the module failed to load')
})
