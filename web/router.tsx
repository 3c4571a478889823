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
    // Where each page was scrolled is kept for the tab and given back on Back and Forward, but not
    // on a chat's page: its list scrolls itself, to the newest message or to one asked for (a
    // search result). The router would set it back after that, to where it was or, on a new
    // address, to where the list of the page before was (it carries scroll positions over).
    // Asked with the latest location: a search result's address is replaced once it is shown.
    scrollRestoration: ({ location }) => !location.pathname.startsWith('/chats/'),
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
