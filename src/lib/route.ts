import { zValidator } from '@hono/zod-validator'
import { Context, type Hono, type MiddlewareHandler } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { z } from 'zod'
import { AppError, type ErrorCode } from './errors'
import { loadOnce } from './load-once'
import type { AppDeps, AppEnv, SessionUser } from './context'

/**
 * Who may call a route. `session`: signed in, e-mail not necessarily confirmed and second factor
 * not necessarily set up (me, logout, resend, setting up a second factor). `user`: signed in and confirmed. `admin`: confirmed admin of their organisation.
 * `apiKey`: a confirmed user's API key as a bearer token (the OpenAI-compatible API under /v1,
 * which authenticates and mounts its routes itself).
 */
export type Access = 'public' | 'session' | 'user' | 'admin' | 'apiKey'

type Schema = z.ZodType
type Infer<S> = S extends Schema ? z.infer<S> : undefined

export type RouteSpec<B, Q, P, R, A extends Access> = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** Hono path below `base`, e.g. `/users/:id/role`. */
  path: string
  /** Where the route is mounted; /api unless said otherwise. */
  base?: '/v1'
  summary: string
  tag: string
  access: A
  body?: B
  query?: Q
  params?: P
  response?: R
  status?: ContentfulStatusCode | 204
  /** The answer is a text/event-stream (documented as such). */
  stream?: boolean
  /** The answer is a download of one of these media types (documented as such; errors stay JSON). */
  download?: string[]
  errors?: ErrorCode[]
}

type HandlerInput<B, Q, P, A extends Access> = {
  c: Context<AppEnv>
  deps: AppDeps
  body: Infer<B>
  query: Infer<Q>
  params: Infer<P>
  user: A extends 'public' ? SessionUser | null : SessionUser
}

export type RouteDef = RouteSpec<Schema | undefined, Schema | undefined, Schema | undefined, Schema | undefined, Access> & {
  handler: (input: HandlerInput<any, any, any, any>) => Promise<unknown>
}

/** Declares one API route: its zod schemas validate the request and feed the OpenAPI document. */
export function defineRoute<
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
  R extends Schema | undefined = undefined,
  A extends Access = Access,
>(
  spec: RouteSpec<B, Q, P, R, A>,
  handler: (input: HandlerInput<B, Q, P, A>) => Promise<(R extends Schema ? z.input<R> : unknown) | Response>,
): RouteDef {
  return { ...spec, handler } as unknown as RouteDef
}

const validationHook = (result: { success: boolean; error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } }) => {
  if (!result.success && result.error) {
    const fields: Record<string, string> = {}
    for (const issue of result.error.issues) {
      const key = issue.path.map(String).join('.') || '_'
      fields[key] ??= issue.message
    }
    throw new AppError('VALIDATION_FAILED', { fields })
  }
}

const requireJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE')
  await next()
}

/**
 * The requests a server-rendered page makes to the API in process, by the page they load for: its
 * loaders read the same cookie a dozen times, so the session is read once per page. Only the page
 * renderer puts requests here (`sharePageSession`, keyed by the Request objects it creates), so
 * nothing a client sends can reach an entry. Reads only: a page's loaders change no session.
 */
const pageSessions = new WeakMap<Request, { session?: Promise<SessionUser | null> }>()

export function sharePageSession(request: Request, page: { session?: Promise<SessionUser | null> }) {
  if (request.method === 'GET') pageSessions.set(request, page)
}

/** The caller of this request; null when signed out. */
export function loadSessionUser(c: Context<AppEnv>): Promise<SessionUser | null> {
  const page = pageSessions.get(c.req.raw)
  if (page) return (page.session ??= c.get('deps').readSession(c.req.raw.headers))
  return c.get('deps').readSession(c.req.raw.headers)
}

export async function authorize(c: Context<AppEnv>, access: Access): Promise<SessionUser | null> {
  const user = await loadSessionUser(c)
  if (access === 'public') return user
  if (!user) throw new AppError('UNAUTHORIZED')
  if (access === 'session') return user
  if (!user.emailVerified) throw new AppError('EMAIL_NOT_VERIFIED')
  // Until the member sets up the second factor their organisation requires, only `session` routes (enrolment among them) answer.
  if (user.twoFactorMissing) throw new AppError('TWO_FACTOR_REQUIRED')
  if (access === 'admin' && user.role !== 'admin') throw new AppError('FORBIDDEN')
  return user
}

/**
 * A domain's routes as the server knows them before it loads them: each route's method and path
 * (`GET /threads/:id`, in their order) and the domain's route module (src/api/route-index.ts).
 */
export type RouteDomain = { load: () => Promise<RouteDef[]>; routes: string[] }

/**
 * The route definitions of a domain by their method and path, its module loaded once, on first
 * use. A load that failed fails the requests waiting for it, and the next request asks again: a
 * failure of the moment passes, while a module whose own code throws fails again (Bun keeps that
 * failure; src/api/route-index.test.ts loads every domain).
 */
function domainLoader(domain: RouteDomain): (key: string) => Promise<RouteDef> {
  let loader = loaders.get(domain)
  if (loader) return loader
  const load = loadOnce(async () => new Map((await domain.load()).map((r) => [`${r.method.toUpperCase()} ${r.path}`, r])))
  loader = async (key) => {
    const route = (await load()).get(key)
    if (!route) throw new Error(`${key} is in src/api/route-index.ts but not in its domain's routes: run src/api/route-index.gen.ts`)
    return route
  }
  loaders.set(domain, loader)
  return loader
}

/** One loader per domain: the app's routes and the page loaders' caller share it. */
const loaders = new WeakMap<RouteDomain, (key: string) => Promise<RouteDef>>()

const splitKey = (key: string) => {
  const space = key.indexOf(' ')
  return [key.slice(0, space), key.slice(space + 1)] as const
}

/** Every route of the domains, each domain's module loaded (the OpenAPI document, the tests). */
export async function loadRoutes(domains: RouteDomain[]): Promise<RouteDef[]> {
  return (await Promise.all(domains.map((d) => d.load()))).flat()
}

/**
 * Registers the domains' routes on a Hono app mounted at /api, in the index's order; a domain's
 * module loads with the first request to one of its routes (decision 0111). Authorisation runs
 * before validation: a caller who may not use a route learns nothing about its input.
 */
export function mountRouteIndex(app: Hono<AppEnv>, domains: RouteDomain[]) {
  const on = app.on.bind(app) as (method: string, path: string, handler: (c: Context<AppEnv>) => Promise<Response>) => void
  for (const domain of domains) {
    const routeOf = domainLoader(domain)
    for (const key of domain.routes) {
      const [method, path] = splitKey(key)
      let handle: ((c: Context<AppEnv>) => Promise<Response>) | undefined
      on(method, path, async (c) => (handle ??= handlerOf(await routeOf(key)))(c))
    }
  }
}

/**
 * A route's handler, as the routes were mounted before decision 0111: its access rule, then its
 * params and query; with a body, then the body's media type (415) and the body (Hono's validator).
 */
function handlerOf(r: RouteDef): (c: Context<AppEnv>) => Promise<Response> {
  if (r.access === 'apiKey') throw new Error(`${r.path}: routes with API-key access mount themselves`)
  if (!r.body) {
    // A route without a body is one step (most requests are reads).
    return async (c) => {
      const user = await authorize(c, r.access)
      c.set('user', user)
      return answer(r, c, user, { body: undefined, ...(await paramsAndQuery(r, c)) })
    }
  }
  const validators: MiddlewareHandler<AppEnv>[] = []
  if (r.params) validators.push(zValidator('param', r.params, validationHook) as unknown as MiddlewareHandler<AppEnv>)
  if (r.query) validators.push(zValidator('query', r.query, validationHook) as unknown as MiddlewareHandler<AppEnv>)
  validators.push(requireJson, zValidator('json', r.body, validationHook) as unknown as MiddlewareHandler<AppEnv>)
  const next = async () => {}
  return async (c) => {
    const user = await authorize(c, r.access)
    c.set('user', user)
    // Each step throws what it refuses (validationHook, requireJson); one that answered instead would end here.
    for (const validate of validators) {
      const refused = await validate(c, next)
      if (refused instanceof Response) return refused
    }
    const req = c.req as unknown as { valid(target: string): unknown }
    return answer(r, c, user, { body: req.valid('json'), params: r.params ? req.valid('param') : undefined, query: r.query ? req.valid('query') : undefined })
  }
}

/** A request's params and query, validated by the route's own schemas; a name given more than once in the query is a list, as Hono's validator reads it. */
async function paramsAndQuery(r: RouteDef, c: Context<AppEnv>) {
  return {
    params: r.params ? await validated(r.params, c.req.param()) : undefined,
    query: r.query ? await validated(r.query, Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]))) : undefined,
  }
}

/** A route's answer once its caller may use it and its input is valid: its result as JSON, or the Response its handler made. */
async function answer(r: RouteDef, c: Context<AppEnv>, user: SessionUser | null, input: { body: unknown; params: unknown; query: unknown }) {
  const result = await r.handler({ c, deps: c.get('deps'), user, ...input })
  if (result instanceof Response) return result
  if (r.status === 204) return c.body(null, 204)
  return c.json(result ?? null, (r.status ?? 200) as ContentfulStatusCode)
}

/**
 * The GET routes as a server-rendered page's loaders call them (decision 0086): in process and
 * directly, each with its own access rule (the page's session, read once: sharePageSession) and
 * its params and query validated by its own schemas. None of the HTTP middleware a browser's
 * request passes (request ids and access lines, security headers, the cross-site check, body
 * limits, the app's router) runs per query. The answer is the route's own: its JSON as `c.json`
 * sends it, or `onError`'s for what it threw. Undefined for a request no GET route answers.
 */
export function routeCaller(domains: RouteDomain[], onError: (error: unknown, c: Context<AppEnv>) => Response | Promise<Response>) {
  const router = new TrieRouter<() => Promise<RouteDef>>()
  for (const domain of domains) {
    const routeOf = domainLoader(domain)
    for (const key of domain.routes) {
      const [method, path] = splitKey(key)
      // Mounted as Hono mounts them at /api: the route `/` is `/api` itself.
      if (method === 'GET') router.add('GET', path === '/' ? '/api' : `/api${path}`, () => routeOf(key))
    }
  }
  return async (request: Request, vars: { deps: AppDeps; requestId: string; logger: AppDeps['logger']; env: unknown }): Promise<Response | undefined> => {
    if (request.method !== 'GET') return undefined
    const path = new URL(request.url).pathname
    const matched = router.match('GET', path)[0][0] as [() => Promise<RouteDef>, Record<string, string>] | undefined
    if (!matched) return undefined
    const c = new Context<AppEnv>(request, { path, matchResult: [[matched]] as never, env: vars.env as never })
    c.set('deps', vars.deps)
    c.set('requestId', vars.requestId)
    c.set('logger', vars.logger)
    try {
      // Its domain's module loads here on first use; a failure answers as the route's would.
      const route = await matched[0]()
      const user = await authorize(c, route.access)
      c.set('user', user)
      return await answer(route, c, user, { body: undefined, ...(await paramsAndQuery(route, c)) })
    } catch (error) {
      return onError(error, c)
    }
  }
}

async function validated(schema: Schema, value: unknown) {
  const result = await schema.safeParseAsync(value)
  validationHook(result)
  return result.data
}

/**
 * Where a route hands work that goes on after its response (file processing): Workers end a
 * request's work with its response unless told to wait; Bun has no execution context and keeps going.
 */
export const backgroundOf =
  (c: Context<AppEnv>) =>
  (job: Promise<unknown>) => {
    try {
      c.executionCtx.waitUntil(job)
    } catch {}
  }
