import { createRouter } from '@tanstack/react-router'
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query'
import { I18nextProvider } from 'react-i18next'
import { ErrorView } from './components/error-view'
import { NotFound } from './components/not-found'
import { routeTree } from './route-tree'
import type { RouterContext } from './router-context'

/** A new router per SSR request (and one in the browser), wired to its own QueryClient. */
export function createAppRouter(context: RouterContext) {
  const router = createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // Loaders read through the query cache, which has its own freshness rules.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: ErrorView,
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
