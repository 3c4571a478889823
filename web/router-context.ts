import type { QueryClient } from '@tanstack/react-query'
import type { i18n } from 'i18next'
import type { ApiClient } from './lib/api-client'

/** What every route's loader and beforeLoad receive; built anew per SSR request. */
export type RouterContext = {
  queryClient: QueryClient
  api: ApiClient
  i18n: i18n
  /** On the server only: the inline script that keeps clicks made before the page's script runs (src/ssr/early-clicks.ts). */
  earlyClicks?: string
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /**
     * Who may get this page's head (stylesheet, scripts to preload, theme) before its loaders run
     * (src/ssr/early-head.ts): visitors with a session cookie, visitors without one, or nobody
     * (the page may answer 404 or redirect for reasons only its loaders know). The deepest
     * matched route that says so decides; a page no route speaks for waits for its loaders.
     */
    earlyHead?: 'signed-in' | 'signed-out' | 'never'
    /**
     * `after-hydration`: the page's first render shows no error message (web/locales/<lang>/errors.json;
     * its form's errors come after a request fails), so the browser hydrates it without those strings
     * and loads them right after, and the server does not preload them (src/ssr/render.tsx). Read on
     * the routes right below the root.
     */
    errorStrings?: 'after-hydration'
  }
}
