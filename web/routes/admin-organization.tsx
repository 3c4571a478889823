import { createRoute } from '@tanstack/react-router'
import { organizationQueries } from '../features/settings/organization'
import { retentionQueries } from '../features/settings/retention'
import { Route as adminRoute } from './admin-settings'

/** The admin area's Settings tab: what holds for the whole organisation. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/organization',
  loader: ({ context }) =>
    Promise.all([context.queryClient.ensureQueryData(organizationQueries.get(context.api)), context.queryClient.ensureQueryData(retentionQueries.get(context.api))]),
}).lazy(() => import('./admin-organization.lazy').then((m) => m.Route))
