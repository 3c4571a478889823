import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

/** The organisation's groups (teams) and the members to put in them. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/groups',
  loader: lazyFn(() => import('./admin-groups.loader'), 'loader'),
}).lazy(() => import('./admin-groups.lazy').then((m) => m.Route))
