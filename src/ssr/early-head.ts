import type { AnyRouter } from '@tanstack/react-router'
import { isbot } from 'isbot'
import { hasSessionCookie } from '../auth/cookie'
import { themeScript } from '../../web/lib/theme'
import { EARLY_CLICKS_SCRIPT } from './early-clicks'

/**
 * The start of a page that may leave before its loaders run: the document up to inside <head>,
 * with the charset, the stylesheet, the entry script and the language's strings to preload, and
 * the theme script. The browser fetches the assets while the server loads the page's data. The
 * rendered document that follows drops its own start up to <head>, so one document results;
 * React hydrates it, skipping the tags in <head> it did not render (React 19).
 */
export function earlyHeadHtml(opts: { lang: string; css: string; js: string; preloads: string[]; nonce: string }) {
  const preloads = [opts.js, ...opts.preloads].map((href) => `<link rel="modulepreload" href="${attr(href)}"/>`).join('')
  return (
    `<!DOCTYPE html><html lang="${attr(opts.lang)}"><head><meta charSet="utf-8"/>` +
    `<link rel="stylesheet" href="${attr(opts.css)}"/>${preloads}<script nonce="${attr(opts.nonce)}">${themeScript()};${EARLY_CLICKS_SCRIPT}</script>`
  )
}

/**
 * Whether this request gets the early head. Only browsers: a bot waits for the whole page anyway,
 * and a script that reads the status gets the real one. Only pages whose status is known from the
 * address and the presence of a session cookie: the routes say which (`staticData.earlyHead`), and
 * a redirect that still happens (an expired session) follows inside the page (`redirectHtml`).
 */
export function wantsEarlyHead(request: Request, router: AnyRouter) {
  if (request.method !== 'GET' || isbot(request.headers.get('user-agent'))) return false
  const [matched, , found] = router.getMatchedRoutes(new URL(request.url).pathname)
  if (!found) return false
  let mode: string | undefined
  for (const route of matched) mode = route.options.staticData?.earlyHead ?? mode
  return mode === (hasSessionCookie(request.headers.get('cookie')) ? 'signed-in' : 'signed-out')
}

/** Ends an early-head page that turned out to be a redirect: the browser follows it at once. */
export const redirectHtml = (location: string) =>
  `<meta http-equiv="refresh" content="0;url=${attr(location)}"/></head><body><a href="${attr(location)}">${text(location)}</a></body></html>`

/** Ends an early-head page whose rendering failed, with the message the error page would show. */
export const failedHtml = (message: string) => `</head><body><p role="alert">${text(message)}</p></body></html>`

/**
 * The rendered document from just after its `<head>` tag: the early head already opened <html>
 * and <head>. React writes the whole shell in its first chunk, so the tag is there; the text before
 * it is only the doctype and the <html> tag.
 */
export function afterHeadTag(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let seen = ''
  let found = false
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (found) return controller.enqueue(chunk)
        seen += decoder.decode(chunk, { stream: true })
        const at = seen.indexOf('<head>')
        if (at < 0) return
        found = true
        controller.enqueue(encoder.encode(seen.slice(at + '<head>'.length)))
        seen = ''
      },
      flush(controller) {
        // No <head> at all (not a document): pass on what came rather than lose it.
        if (!found && seen) controller.enqueue(encoder.encode(seen + decoder.decode()))
      },
    }),
  )
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
