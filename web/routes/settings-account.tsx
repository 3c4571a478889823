import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { sessionListQuery } from '../features/settings/api'
import { twoFactorQueries } from '../features/settings/two-factor'
import { sessionQueries } from '../lib/session'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/account',
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(sessionQueries.me(context.api)),
      context.queryClient.ensureQueryData(sessionListQuery(context.api)),
      context.queryClient.ensureQueryData(twoFactorQueries.status(context.api)),
      context.queryClient.ensureQueryData(twoFactorQueries.passkeys(context.api)),
    ]),
  component: lazyRouteComponent(() => import('../features/settings/components/account-settings'), 'AccountSettings'),
})
