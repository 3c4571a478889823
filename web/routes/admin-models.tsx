import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

/** Providers, enabled and available models, and own endpoints (spec section 2: loads two model lists). */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/models',
  loader: lazyFn(() => import('./admin-models.loader'), 'loader'),
}).lazy(() => import('./admin-models.lazy').then((m) => m.Route))
