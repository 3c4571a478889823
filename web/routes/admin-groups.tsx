import { createRoute } from '@tanstack/react-router'
import { groupQueries } from '../features/groups/api'
import { Route as adminRoute } from './admin-settings'

/** The organisation's groups (teams) and the members to put in them. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/groups',
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(groupQueries.list(context.api)),
      context.queryClient.ensureQueryData(groupQueries.members(context.api)),
    ])
  },
}).lazy(() => import('./admin-groups.lazy').then((m) => m.Route))
