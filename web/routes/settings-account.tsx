import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { sessionQueries } from '../lib/session'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/account',
  loader: ({ context }) => context.queryClient.ensureQueryData(sessionQueries.me(context.api)),
  component: lazyRouteComponent(() => import('../features/settings/components/account-settings'), 'AccountSettings'),
})
