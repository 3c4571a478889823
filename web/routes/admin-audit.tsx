import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

/** The organisation's audit log: who changed what, when and from where. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/audit-log',
  loader: lazyFn(() => import('./admin-audit.loader'), 'loader'),
}).lazy(() => import('./admin-audit.lazy').then((m) => m.Route))
