import { createRouter } from '@tanstack/react-router'
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query'
import { I18nextProvider } from 'react-i18next'
import { ErrorView } from './components/error-view'
import { NotFound } from './components/not-found'
import { routeTree } from './route-tree'
import type { RouterContext } from './router-context'

/**
 * A new router per SSR request (and one in the browser), wired to its own QueryClient. On the
 * server, `nonce` goes on the inline scripts that React and the router write into the page; the
 * browser's router reads it back from the page (`<meta property="csp-nonce">`) when it hydrates.
 */
export function createAppRouter(context: RouterContext, opts: { nonce?: string } = {}) {
  const router = createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // Loaders read through the query cache, which has its own freshness rules.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: ErrorView,
    ...(opts.nonce && { ssr: { nonce: opts.nonce } }),
    Wrap: ({ children }) => <I18nextProvider i18n={context.i18n}>{children}</I18nextProvider>,
  })
  setupRouterSsrQueryIntegration({ router, queryClient: context.queryClient })
  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
