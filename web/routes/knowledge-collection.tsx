import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as appRoute } from './app'

/** One knowledge collection: its files and, for its owner, its sharing. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/knowledge/$collectionId',
  loader: lazyFn(() => import('./knowledge-collection.loader'), 'loader'),
}).lazy(() => import('./knowledge-collection.lazy').then((m) => m.Route))
