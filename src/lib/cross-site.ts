import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from './context'
import { AppError } from './errors'

const SAFE_METHODS = /^(GET|HEAD|OPTIONS)$/

/**
 * Why a state-changing request is refused as cross-site, or null when it may go on. Browsers
 * name the page that made a request in `Origin` (every non-GET) and `Sec-Fetch-Site`; a
 * request with neither comes from outside a browser (curl, another server, an API client) and
 * cannot ride on a visitor's session cookie, so it is let through.
 */
function crossSiteReason(method: string, headers: { origin?: string; secFetchSite?: string }, ownOrigin: string): string | null {
  if (SAFE_METHODS.test(method)) return null
  const { origin, secFetchSite } = headers
  // "null" (a sandboxed frame, a redirect across origins, a file) is another origin too.
  if (origin !== undefined && origin !== ownOrigin) return 'origin'
  if (secFetchSite === 'cross-site') return 'cross-site'
  // Another origin of the same site (a sibling subdomain) is no more trusted than another site.
  if (secFetchSite === 'same-site' && origin !== ownOrigin) return 'same-site'
  return null
}

/**
 * Refuses POST, PUT, PATCH and DELETE requests that a browser sent for another origin than
 * Kontor's own (`KONTOR_BASE_URL`) with 403 `CSRF_REJECTED`, whatever their content type
 * (docs/decisions/0035). The only route other sites call is the SAML assertion consumer service,
 * which the app leaves out: a signed response, not a cookie, proves its request.
 */
export function refuseCrossSiteWrites(opts: { baseUrl: string }): MiddlewareHandler<AppEnv> {
  const ownOrigin = new URL(opts.baseUrl).origin
  return async (c, next) => {
    const reason = crossSiteReason(c.req.method, { origin: c.req.header('origin'), secFetchSite: c.req.header('sec-fetch-site') }, ownOrigin)
    if (reason) {
      c.get('logger').warn('cross-site request refused', { method: c.req.method, path: c.req.path, reason, origin: c.req.header('origin') })
      throw new AppError('CSRF_REJECTED')
    }
    await next()
  }
}
