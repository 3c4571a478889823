import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as rootRoute } from './__root'

type AcceptInviteSearch = { token: string }

/**
 * Loads the invitation by its token. Failures are returned as data (not thrown), so the error
 * screen renders the same on the server and in the browser.
 */
export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accept-invite',
  // A missing token still renders the page, as the invalid-invitation screen.
  validateSearch: (search: Record<string, unknown>): AcceptInviteSearch => ({
    token: typeof search.token === 'string' ? search.token : '',
  }),
  loaderDeps: ({ search }) => ({ token: search.token }),
  loader: lazyFn(() => import('./accept-invite.loader'), 'loader'),
}).lazy(() => import('./accept-invite.lazy').then((m) => m.Route))
