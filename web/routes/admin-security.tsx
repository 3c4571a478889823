import { createRoute } from '@tanstack/react-router'
import { securityQueries } from '../features/security/api'
import { scimQueries } from '../features/security/scim-api'
import { Route as adminRoute } from './admin-settings'

/** How the organisation's members sign in (single sign-on, a second factor) and how its directory provisions them (SCIM). */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/security',
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(securityQueries.sso(context.api)),
      context.queryClient.ensureQueryData(securityQueries.twoFactorRequirement(context.api)),
      context.queryClient.ensureQueryData(scimQueries.tokens(context.api)),
    ]),
}).lazy(() => import('./admin-security.lazy').then((m) => m.Route))
