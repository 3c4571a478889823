import { createRoute } from '@tanstack/react-router'
import { Route as rootRoute } from './__root'

type LoginSearch = { emailVerified?: boolean; redirect?: string }

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): LoginSearch => ({
    emailVerified: search.emailVerified === true || search.emailVerified === 'true' ? true : undefined,
    redirect: typeof search.redirect === 'string' ? search.redirect : undefined,
  }),
  head: () => ({ meta: [{ title: 'Kontor' }] }),
}).lazy(() => import('./login.lazy').then((m) => m.Route))
