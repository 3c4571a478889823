import { createRoute } from '@tanstack/react-router'
import { securityQueries } from '../features/security/api'
import { Route as adminRoute } from './admin-settings'

/** How the organisation's members sign in: single sign-on. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/security',
  loader: ({ context }) => context.queryClient.ensureQueryData(securityQueries.sso(context.api)),
}).lazy(() => import('./admin-security.lazy').then((m) => m.Route))
