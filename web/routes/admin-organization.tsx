import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

/** The admin area's Settings tab: what holds for the whole organisation. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/organization',
  loader: lazyFn(() => import('./admin-organization.loader'), 'loader'),
}).lazy(() => import('./admin-organization.lazy').then((m) => m.Route))
