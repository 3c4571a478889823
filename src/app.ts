import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import type { AppDeps, AppEnv } from './lib/context'
import { DATABASE_UNREACHABLE, describeDatabaseError, isDatabaseUnavailable } from './lib/database-errors'
import { refuseCrossSiteWrites } from './lib/cross-site'
import { AppError, ERRORS, type ErrorCode } from './lib/errors'
import { loadRoutes, mountRouteIndex, routeCaller } from './lib/route'
import { API_DOMAINS } from './api/route-index'
import { UPLOAD_PATH } from './api/sources/upload-path'
import { COLLECTION_UPLOAD_PATH } from './api/knowledge/upload-path'
import { SAML_ACS_ROUTE } from './api/sso/saml-path'
import { securityHeaders } from './lib/security-headers'
import { mountOnFirstUse } from './lib/sub-app'

/** Every API route under /api, each domain's module loaded (the OpenAPI document, the tests); the server loads a domain with its first request. */
export const loadApiRoutes = () => loadRoutes(API_DOMAINS)

/** Largest JSON body the API accepts; uploads have their own limit. */
export const JSON_BODY_LIMIT = 1024 * 1024

/** Renders a page; `nonce` goes on every inline script, as the page's Content-Security-Policy demands. */
export type PageRenderer = (request: Request, api: (request: Request) => Promise<Response>, nonce: string) => Promise<Response>

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
}

/**
 * The path and query of an address: where a form's post returns to (an invitation's token
 * included). Always this site's: leading slashes (or backslashes) are one, so `//host/x` cannot
 * become an address on another host.
 */
const pageAddress = (url: string) => {
  const { pathname, search } = new URL(url)
  return `/${pathname.replace(/^[/\\]+/, '')}${search}`
}

/** Paths whose every answer is JSON (or their protocol's), never a page. */
const API_PREFIXES = ['/api', '/v1', '/scim', '/mcp']

/** The answer to what a request threw: an AppError's own, 503 for an outage, else 500 (logged). */
function errorAnswer(error: unknown, c: Context<AppEnv>) {
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) {
    // An outage, not a bug: 503 with a clear message; /api/ready says the same until it is back.
    c.get('logger')?.error('database unreachable', { error: describeDatabaseError(error), method: c.req.method, path: c.req.path })
    error = new AppError('SERVICE_UNAVAILABLE', { message: DATABASE_UNREACHABLE, retryAfter: 5 })
  }
  if (error instanceof AppError) {
    if (error.retryAfter) c.header('Retry-After', String(error.retryAfter))
    return c.json(error.toBody(), error.status)
  }
  if (error instanceof HTTPException && error.status < 500) {
    const code: ErrorCode =
      error.status === 400 && /json/i.test(error.message) ? 'INVALID_JSON' : (STATUS_CODES[error.status] ?? 'BAD_REQUEST')
    return c.json({ code, message: ERRORS[code][1], status: ERRORS[code][0] }, ERRORS[code][0])
  }
  const requestId = c.get('requestId')
  c.get('logger')?.error('unhandled error', { error, method: c.req.method, path: c.req.path })
  const [status, message] = ERRORS.INTERNAL_ERROR
  return c.json({ code: 'INTERNAL_ERROR', message, status, requestId }, status)
}

const notFound = (c: Context<AppEnv>) => c.json({ code: 'NOT_FOUND', message: ERRORS.NOT_FOUND[1], status: 404 }, 404)

/**
 * The whole application as one Hono app, free of Bun- and Node-only APIs so that the Bun entry
 * and the Workers entry serve the same thing. Static files come from the entry (`assets`).
 */
export function createApp(deps: AppDeps, opts: { assets?: MiddlewareHandler; renderPage?: PageRenderer } = {}) {
  const app = new Hono<AppEnv>()

  app.use(async (c, next) => {
    const requestId = c.req.header('x-request-id')?.slice(0, 64) || crypto.randomUUID()
    c.set('deps', deps)
    c.set('requestId', requestId)
    c.set('logger', deps.logger.child({ requestId }))
    c.header('X-Request-Id', requestId)
    const started = Date.now()
    await next()
    // One access line per API call (assets and probes are left out to keep the log useful).
    if ((c.req.path.startsWith('/api/') && c.req.path !== '/api/health') || c.req.path.startsWith('/v1/') || c.req.path.startsWith('/scim/') || c.req.path === '/mcp') {
      c.get('logger').info('request', { method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started })
    }
  })
  app.use(securityHeaders({ baseUrl: deps.config.baseUrl }))
  // /v1, /scim and /mcp read no cookie (their calls carry a bearer token), so a request from another site rides on nothing.
  // A SAML identity provider's page posts its response across sites by design: the response's signature is its proof.
  const crossSite = refuseCrossSiteWrites({ baseUrl: deps.config.baseUrl })
  const bearerOrSigned = (path: string) => path.startsWith('/v1/') || path.startsWith('/scim/') || path === '/mcp' || path.startsWith(SAML_ACS_ROUTE)
  app.use((c, next) => (bearerOrSigned(c.req.path) ? next() : crossSite(c, next)))

  app.onError(errorAnswer)

  const api = new Hono<AppEnv>()
  const jsonBodyLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: () => {
      throw new AppError('PAYLOAD_TOO_LARGE')
    },
  })
  // File uploads (a chat's, a collection's) stream in under their own 20 MB limit (src/api/sources/upload.ts).
  api.use((c, next) => (c.req.method === 'POST' && (UPLOAD_PATH.test(c.req.path) || COLLECTION_UPLOAD_PATH.test(c.req.path)) ? next() : jsonBodyLimit(c, next)))
  // Beside the cross-site check above, JSON routes refuse other bodies (415): a form never reaches a service.
  mountRouteIndex(api, API_DOMAINS)
  // The OpenAPI document is built when first asked for: building it at start cost start time and memory.
  let openApi: Promise<unknown> | undefined
  const document = () =>
    (openApi ??= import('./lib/openapi').then(async ({ buildOpenApi }) =>
      buildOpenApi([...(await loadApiRoutes()), ...(await import('./api/openai/routes')).openAiRoutes], { version: '1.0.0' }),
    ))
  api.get('/docs', async (c) => c.json(await document()))
  api.all('*', () => {
    throw new AppError('NOT_FOUND')
  })
  app.route('/api', api)
  // The OpenAI-compatible API, SCIM and the MCP server load with their first request (decision 0112).
  const answers = { onError: errorAnswer, notFound }
  mountOnFirstUse(app, '/v1', ['/*'], () => import('./api/openai/routes').then((m) => m.createOpenAiApi()), answers)
  mountOnFirstUse(app, '/scim/v2', ['/*'], () => import('./api/scim/app').then((m) => m.createScimApi()), answers)
  mountOnFirstUse(app, '/mcp', ['/'], () => import('./api/mcp/routes').then((m) => m.createMcpApi()), answers)

  if (opts.assets) app.use('*', opts.assets)
  if (opts.renderPage) {
    const render = opts.renderPage
    // The page's loaders call the GET routes directly; anything else goes through the whole app.
    const callRoute = routeCaller(API_DOMAINS, errorAnswer)
    app.get('*', (c) => {
      const vars = { deps, requestId: c.get('requestId'), logger: c.get('logger'), env: c.env }
      return render(c.req.raw, async (request) => (await callRoute(request, vars)) ?? app.fetch(request, c.env), c.get('cspNonce'))
    })
    // A form sent before the page's script ran (on a slow connection) posts to the page itself
    // (the sign-up, invitation and password forms say method=post, so no password lands in an
    // address): the page opens again instead of an error in JSON. No page takes a post.
    app.post('*', (c, next) => (API_PREFIXES.some((prefix) => c.req.path === prefix || c.req.path.startsWith(`${prefix}/`)) ? next() : c.redirect(pageAddress(c.req.url), 303)))
  }
  app.notFound(notFound)
  return app
}

export type App = ReturnType<typeof createApp>
