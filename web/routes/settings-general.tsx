import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/general',
  loader: lazyFn(() => import('./settings-general.loader'), 'loader'),
}).lazy(() => import('./settings-general.lazy').then((m) => m.Route))
