import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as rootRoute } from './__root'

type ConfirmEmailSearch = { token: string }

/**
 * Confirms in the loader, so that on a first visit the server answers with the redirect itself.
 * Failures are returned as data (not thrown) so the error screen renders the same on both sides.
 */
export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/confirm-email',
  validateSearch: (search: Record<string, unknown>): ConfirmEmailSearch => ({
    token: typeof search.token === 'string' ? search.token : '',
  }),
  loaderDeps: ({ search }) => ({ token: search.token }),
  loader: lazyFn(() => import('./confirm-email.loader'), 'loader'),
}).lazy(() => import('./confirm-email.lazy').then((m) => m.Route))
