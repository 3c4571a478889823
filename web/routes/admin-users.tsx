import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { inviteQueries, memberQueries } from '../features/members/api'
import { Route as adminRoute } from './admin-settings'

const membersPage = () => import('../features/members/components/members-page')

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
  pendingComponent: lazyRouteComponent(membersPage, 'MembersPageSkeleton'),
  component: lazyRouteComponent(membersPage, 'MembersPage'),
})
