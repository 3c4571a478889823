import { createRoute } from '@tanstack/react-router'
import { inviteQueries, memberQueries } from '../features/members/api'
import { Route as adminRoute } from './admin-settings'

/** Members and invitations of the organisation (spec section 2: loads invites and users). */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/users',
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(memberQueries.list(context.api)),
      context.queryClient.ensureQueryData(inviteQueries.list(context.api)),
    ])
  },
}).lazy(() => import('./admin-users.lazy').then((m) => m.Route))
