import { createRequestHandler, defaultStreamHandler } from '@tanstack/react-router/ssr/server'
import type { PageRenderer } from '../app'
import { createApiClient, type Fetcher } from '../../web/lib/api-client'
import { createI18n, detectLanguage, LANGUAGES, type Language } from '../../web/lib/i18n'
import { allStrings } from '../../web/locales/all'
import { createQueryClient } from '../../web/lib/query-client'
import { createAppRouter } from '../../web/router'

/**
 * public/build/manifest.json (web/build.ts): `routes` lists, per route id, the chunks of its lazily
 * loaded parts; `locales`, per language, the chunks of its strings.
 */
export type WebAssets = { js: string; css: string; routes?: Record<string, string[]>; locales?: Partial<Record<Language, string[]>> }

/**
 * Streams the React pages. Each request gets its own router, QueryClient and i18n instance;
 * loaders call the API in-process with the visitor's cookies, so the first screen's data is
 * in the first flush and nothing crosses the network.
 */
export function createPageRenderer(assets: WebAssets): PageRenderer {
  // The page preloads the chunks of the matched routes' components, which the browser loads
  // before it hydrates (RouterClient awaits them), so they come in parallel with the entry.
  // The entry awaits the strings of the page's language before it hydrates: they come in parallel with it.
  const routes = Object.fromEntries(Object.entries(assets.routes ?? {}).map(([id, chunks]) => [id, { preloads: chunks }]))
  const manifestFor = (lang: Language) => ({
    routes: {
      ...routes,
      __root__: {
        css: [assets.css],
        scripts: [{ attrs: { type: 'module', src: assets.js, async: true } }],
        preloads: assets.locales?.[lang] ?? [],
      },
    },
  })
  const manifests = new Map(LANGUAGES.map((lang) => [lang, manifestFor(lang)]))
  return async (request, apiFetch, nonce) => {
    const origin = new URL(request.url).origin
    const cookie = request.headers.get('cookie')
    const forwardedFor = request.headers.get('x-forwarded-for')
    const fetcher: Fetcher = (path, init = {}) => {
      const headers = new Headers(init.headers)
      if (cookie) headers.set('cookie', cookie)
      if (forwardedFor) headers.set('x-forwarded-for', forwardedFor)
      return apiFetch(new Request(new URL(path, origin), { ...init, headers }))
    }
    const lang = detectLanguage(cookie, request.headers.get('accept-language'))
    const handler = createRequestHandler({
      request,
      createRouter: () =>
        createAppRouter({ queryClient: createQueryClient(), api: createApiClient(fetcher), i18n: createI18n(lang, allStrings) }, { nonce }),
      getRouterManifest: () => manifests.get(lang)!,
    })
    const response = await handler(defaultStreamHandler)
    response.headers.set('Vary', 'Cookie, Accept-Language')
    response.headers.set('Cache-Control', 'no-store')
    return response
  }
}
