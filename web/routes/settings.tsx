import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { Route as appRoute } from './app'

export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  component: lazyRouteComponent(() => import('../features/settings/components/settings-layout'), 'SettingsLayout'),
})
