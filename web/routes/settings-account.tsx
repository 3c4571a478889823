import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { authQueries } from '../features/auth/api'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/account',
  loader: ({ context }) => context.queryClient.ensureQueryData(authQueries.me(context.api)),
  component: lazyRouteComponent(() => import('../features/settings/components/account-settings'), 'AccountSettings'),
})
