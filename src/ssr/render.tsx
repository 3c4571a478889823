import type { AnyRoute } from '@tanstack/react-router'
import { createRequestHandler, defaultStreamHandler } from '@tanstack/react-router/ssr/server'
import type { PageRenderer } from '../app'
import { createApiClient, type Fetcher } from '../../web/lib/api-client'
import { cookieMatches, createI18n, detectLanguage, FALLBACK_LANGUAGE, languageCookie, LANGUAGES, type Language } from '../../web/lib/i18n'
import { sessionQueries, type Me } from '../../web/lib/session'
import { hasSessionCookie } from '../auth/cookie'
import { loadStrings, type Strings, type StringsPart } from '../../web/locales'
import deErrors from '../../web/locales/de/errors.json'
import enErrors from '../../web/locales/en/errors.json'
import { createQueryClient } from '../../web/lib/query-client'
import { MANAGE_ROUTES } from '../../web/lib/manage-routes'
import { createAppRouter } from '../../web/router'
import { loadOnce } from '../lib/load-once'
import { sharePageSession } from '../lib/route'
import { afterHeadTag, earlyHeadHtml, failedHtml, redirectHtml, wantsEarlyHead } from './early-head'
import { EARLY_CLICKS_SCRIPT } from './early-clicks'

/**
 * public/build/manifest.json (web/build.ts): `routes` lists, per route id, the chunks of its lazily
 * loaded parts; `locales`, per language, the chunks of the strings every page needs, `errorLocales`
 * those of the error messages (every page but the sign-in pages has them before it hydrates), and
 * `appLocales` those of the signed-in screens' strings, which the pages under the app's layout need too,
 * `manageLocales` those of the settings and administration screens (MANAGE_ROUTES).
 */
export type WebAssets = {
  js: string
  css: string
  routes?: Record<string, string[]>
  locales?: Partial<Record<Language, string[]>>
  errorLocales?: Partial<Record<Language, string[]>>
  appLocales?: Partial<Record<Language, string[]>>
  manageLocales?: Partial<Record<Language, string[]>>
}

/** Per language and part (web/locales/index.ts), the strings as the server loads them: each with the first page that needs it, then kept. */
const serverStrings = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, Object.fromEntries(Object.entries(loadStrings[lang]).map(([part, load]) => [part, loadOnce(load)]))]),
) as typeof loadStrings

/**
 * The strings a page is rendered with: the parts the browser holds before it hydrates that page
 * (web/entry-client.tsx), and the error messages, which the root route asks for anyway: a page
 * under the app's layout (or the two-factor set-up) also gets the signed-in screens' strings, a
 * settings or administration page theirs. The server loads a part of a language with the first page
 * that needs it, instead of every language's strings at start.
 */
export async function pageStrings(lang: Language, matched: Set<string>): Promise<Partial<Strings>> {
  const parts: StringsPart[] = ['public', 'errors']
  if (matched.has('/app') || matched.has('/two-factor/setup')) parts.push('app')
  if (MANAGE_ROUTES.some((id) => matched.has(id))) parts.push('manage')
  return Object.assign({}, ...(await Promise.all(parts.map((part) => serverStrings[lang][part]()))))
}

/** The error messages, for the one a page shows when its rendering fails after its head left. */
const errorStrings = { en: { errors: enErrors }, de: { errors: deErrors } } satisfies Record<Language, Partial<Strings>>

/**
 * Streams the React pages. Each request gets its own router, QueryClient and i18n instance;
 * loaders call the API in-process with the visitor's cookies, so the first screen's data is
 * in the first flush and nothing crosses the network.
 */
export function createPageRenderer(assets: WebAssets): PageRenderer {
  // The page preloads the chunks of the matched routes' components, which the browser loads
  // before it hydrates (the entry awaits the router's hydration, which loads them), so they come in parallel with the entry.
  // The entry awaits the strings of the page's language before it hydrates: they come in parallel with it.
  // Only to match addresses to routes (which pages get the early head, which the error messages): it never loads a page.
  const matcher = createAppRouter({ queryClient: createQueryClient(), api: createApiClient(() => Promise.reject(new Error('matching only'))), i18n: createI18n(FALLBACK_LANGUAGE, {}) })
  const manifestFor = (lang: Language) => {
    const preloads = new Map(Object.entries(assets.routes ?? {}))
    const add = (id: string, chunks: string[] = []) => preloads.set(id, [...(preloads.get(id) ?? []), ...chunks])
    add('/app', assets.appLocales?.[lang])
    // The settings and administration pages (and the two-factor set-up) need their own strings too.
    for (const id of MANAGE_ROUTES) {
      if (id === '/two-factor/setup') add(id, assets.appLocales?.[lang])
      add(id, assets.manageLocales?.[lang])
    }
    // The error messages, once per page (on the route right below the root), but on the pages whose first render shows none.
    for (const route of Object.values(matcher.routesById) as AnyRoute[]) {
      if (route.parentRoute?.id === '__root__' && route.options.staticData?.errorStrings !== 'after-hydration') add(route.id, assets.errorLocales?.[lang])
    }
    return {
      routes: {
        ...Object.fromEntries([...preloads].map(([id, chunks]) => [id, { preloads: chunks }])),
        __root__: {
          css: [assets.css],
          scripts: [{ attrs: { type: 'module', src: assets.js, async: true } }],
          preloads: assets.locales?.[lang] ?? [],
        },
      },
    }
  }
  const manifests = new Map(LANGUAGES.map((lang) => [lang, manifestFor(lang)]))
  return async (request, apiFetch, nonce) => {
    const origin = new URL(request.url).origin
    const cookie = request.headers.get('cookie')
    const forwardedFor = request.headers.get('x-forwarded-for')
    const cookieLang = detectLanguage(cookie, request.headers.get('accept-language'))
    const routes = matcher.getMatchedRoutes(new URL(request.url).pathname)[0]
    const page = {}
    const fetcher: Fetcher = (path, init = {}) => {
      const headers = new Headers(init.headers)
      if (cookie) headers.set('cookie', cookie)
      if (forwardedFor) headers.set('x-forwarded-for', forwardedFor)
      const apiRequest = new Request(new URL(path, origin), { ...init, headers })
      sharePageSession(apiRequest, page)
      return apiFetch(apiRequest)
    }
    /**
     * The page in the visitor's language. A signed-in member's is in their account's language and
     * theme, which they may have changed on another device: the account wins over this browser's
     * cookie and storage. The answer is the one the protected routes ask for first
     * (sessionQueries.me), so it is read once. Its head's first script keeps the clicks made before
     * the page's script runs, unless the early head, which carries that script, went first.
     */
    const render = async (earlyClicks = EARLY_CLICKS_SCRIPT) => {
      const queryClient = createQueryClient()
      const api = createApiClient(fetcher)
      const me = hasSessionCookie(cookie) ? await api.get<Me>('/auth/me').catch(() => undefined) : undefined
      if (me) queryClient.setQueryData(sessionQueries.me(api).queryKey, me)
      const lang = me?.locale ?? cookieLang
      const strings = await pageStrings(lang, new Set(routes.map((route) => route.id as string)))
      const router = createAppRouter({ queryClient, api, i18n: createI18n(lang, { [lang]: strings }), earlyClicks }, { nonce })
      const response = await createRequestHandler({ request, createRouter: () => router, getRouterManifest: () => manifests.get(lang)! })(defaultStreamHandler)
      return { response, me }
    }
    const headers = new Headers({ 'Content-Type': 'text/html; charset=UTF-8', Vary: 'Cookie, Accept-Language', 'Cache-Control': 'no-store' })
    if (!wantsEarlyHead(request, matcher)) {
      const { response, me } = await render()
      for (const [name, value] of headers) if (name !== 'content-type') response.headers.append(name, value)
      // This browser remembers the account's language from now on, also for the pages before sign-in.
      if (me && !cookieMatches(cookie, me.locale)) response.headers.append('Set-Cookie', languageCookie(me.locale))
      return response
    }
    // The head leaves before anything is read: in the cookie's language, with this browser's theme.
    // A member's page corrects both, and the cookie, in its own head's first script (themeScript).
    const errorsLater = routes.some((route) => route.options.staticData?.errorStrings === 'after-hydration')
    const preloads = [...(assets.locales?.[cookieLang] ?? []), ...(errorsLater ? [] : (assets.errorLocales?.[cookieLang] ?? []))]
    const head = earlyHeadHtml({ lang: cookieLang, css: assets.css, js: assets.js, preloads, nonce })
    const failed = () => createI18n(cookieLang, errorStrings).t('UNKNOWN', { ns: 'errors' })
    return new Response(streamAfter(head, async () => (await render('')).response, failed), { status: 200, headers })
  }
}

const nextTurn = () => new Promise<void>((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)))

/**
 * The early head at once, then the rendered page after its own `<head>` tag, or the end of a
 * redirect or of a failed render. A visitor who leaves cancels the rendering.
 */
function streamAfter(head: string, render: () => Promise<Response>, failed: () => string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let body: ReadableStreamDefaultReader<Uint8Array> | undefined
  let cancelled = false
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(head))
      try {
        // Rendering starts on the next turn of the event loop: its synchronous first steps (the
        // router's matching, the first loaders' calls into the API) would otherwise run before the
        // response, and so the head, is written.
        await nextTurn()
        if (cancelled) return
        const response = await render()
        // Gone while the page loaded: nothing will read the rendered page.
        if (cancelled) return void (await response.body?.cancel())
        const location = response.headers.get('location')
        if (location && response.status >= 300 && response.status < 400) {
          controller.enqueue(encoder.encode(redirectHtml(location)))
          return controller.close()
        }
        if (!response.body) return controller.close()
        body = afterHeadTag(response.body).getReader()
      } catch (error) {
        console.error('Page rendering failed after its head was sent:', error)
        controller.enqueue(encoder.encode(failedHtml(failed())))
        controller.close()
      }
    },
    async pull(controller) {
      if (!body) return
      const chunk = await body.read()
      if (chunk.done) controller.close()
      else controller.enqueue(chunk.value)
    },
    cancel(reason) {
      cancelled = true
      return body?.cancel(reason)
    },
  })
}
