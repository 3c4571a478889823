import { createRoute, lazyFn, lazyRouteComponent } from '@tanstack/react-router'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/account',
  loader: lazyFn(() => import('./settings-account.loader'), 'loader'),
  component: lazyRouteComponent(() => import('../features/settings/components/account-settings'), 'AccountSettings'),
})
