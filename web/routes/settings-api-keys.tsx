import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/api-keys',
  loader: lazyFn(() => import('./settings-api-keys.loader'), 'loader'),
}).lazy(() => import('./settings-api-keys.lazy').then((m) => m.Route))
