import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

/** The organisation's API access and every member's API key. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/api',
  loader: lazyFn(() => import('./admin-api.loader'), 'loader'),
}).lazy(() => import('./admin-api.lazy').then((m) => m.Route))
