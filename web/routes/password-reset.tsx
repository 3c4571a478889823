import { createRoute } from '@tanstack/react-router'
import { Route as rootRoute } from './__root'

type PasswordResetSearch = { token: string }

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/password/reset',
  // A missing token still renders the page, as the invalid-link screen.
  validateSearch: (search: Record<string, unknown>): PasswordResetSearch => ({
    token: typeof search.token === 'string' ? search.token : '',
  }),
}).lazy(() => import('./password-reset.lazy').then((m) => m.Route))
