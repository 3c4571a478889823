import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

/** Members and invitations of the organisation (spec section 2: loads invites and users). */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/users',
  loader: lazyFn(() => import('./admin-users.loader'), 'loader'),
}).lazy(() => import('./admin-users.lazy').then((m) => m.Route))
