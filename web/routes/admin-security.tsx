import { createRoute } from '@tanstack/react-router'
import { scimQueries } from '../features/security/scim-api'
import { Route as adminRoute } from './admin-settings'

/** The organisation's identity settings: SCIM provisioning. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/security',
  loader: ({ context }) => context.queryClient.ensureQueryData(scimQueries.tokens(context.api)),
}).lazy(() => import('./admin-security.lazy').then((m) => m.Route))
