import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as appRoute } from './app'

/** The user's agents (spec section 2), and the permitted models their dialog offers. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/agents',
  loader: lazyFn(() => import('./agents.loader'), 'loader'),
}).lazy(() => import('./agents.lazy').then((m) => m.Route))
