import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

/** How the organisation's members sign in (single sign-on, a second factor) and how its directory provisions them (SCIM). */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/security',
  loader: lazyFn(() => import('./admin-security.loader'), 'loader'),
}).lazy(() => import('./admin-security.lazy').then((m) => m.Route))
