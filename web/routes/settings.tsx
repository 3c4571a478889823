import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { ensureManageStrings } from '../lib/i18n'
import { Route as appRoute } from './app'

export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  // The settings screens' strings come with the first of them (the chat does not load them).
  beforeLoad: ({ context }) => ensureManageStrings(context.i18n),
  component: lazyRouteComponent(() => import('../features/settings/components/settings-layout'), 'SettingsLayout'),
})
