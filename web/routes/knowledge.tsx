import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as appRoute } from './app'

/** The knowledge collections the user may read: their own and those shared with them. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/knowledge',
  loader: lazyFn(() => import('./knowledge.loader'), 'loader'),
}).lazy(() => import('./knowledge.lazy').then((m) => m.Route))
