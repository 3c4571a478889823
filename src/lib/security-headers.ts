import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from './context'

/**
 * The security headers of every answer (docs/decisions/0034). Pages get a Content-Security-Policy
 * whose scripts must carry the request's nonce; everything else (API answers, static files) a
 * policy that allows nothing, since none of it is meant to run as a document.
 */

/**
 * What the app uses of the browser's powerful features: writing to the clipboard (the copy
 * buttons). Reading it stays at the browser's default (this origin, behind its permission
 * prompt); pasting files into the composer needs no permission at all. Only features browsers
 * know: Chromium warns in the console of every page about a name it does not (`bluetooth`).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'clipboard-read=(self)',
  'clipboard-write=(self)',
  'display-capture=()',
  'encrypted-media=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ')

/** The policy of answers that are not pages: nothing may load, nothing may frame them. */
export const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'"

/**
 * Headers every answer carries, pages, API and static files alike. Also the `/*` rule of
 * public/_headers, which Workers apply to the static files they serve without running Kontor.
 */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': PERMISSIONS_POLICY,
  // frame-ancestors says the same to browsers that know CSP level 2.
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
}

/**
 * A page's policy. Scripts: Kontor's own files and the inline scripts of this response (the
 * theme script, React's and the router's streamed scripts), which carry `nonce`. Styles allow
 * inline: React renders `style` attributes (virtualised lists, progress bars) and sonner and
 * Radix insert <style> elements without a nonce. No images (but the page's own blob: URLs, for pictures that MCP tools return), fonts or connections elsewhere.
 */
export function pageCsp(nonce: string) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** 16 random bytes, base64: a fresh one per request, so a nonce seen once is worth nothing. */
export function createNonce() {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
}

/**
 * Sets the headers on whatever the app answers, errors included. The nonce is chosen before the
 * page is rendered (`c.get('cspNonce')`); an HTML answer gets the page policy with it.
 */
export function securityHeaders(opts: { baseUrl: string }): MiddlewareHandler<AppEnv> {
  // Only over https: browsers ignore it on http, and a development server must stay reachable.
  const hsts = opts.baseUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : undefined
  return async (c, next) => {
    const nonce = createNonce()
    c.set('cspNonce', nonce)
    await next()
    const headers = c.res.headers
    for (const [name, value] of Object.entries(COMMON_HEADERS)) headers.set(name, value)
    if (hsts) headers.set('Strict-Transport-Security', hsts)
    const html = /^text\/html\b/i.test(headers.get('content-type') ?? '')
    headers.set('Content-Security-Policy', html ? pageCsp(nonce) : NON_PAGE_CSP)
  }
}
