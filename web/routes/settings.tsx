import { createRoute } from '@tanstack/react-router'
import { SettingsLayout } from '../features/settings/components/settings-layout'
import { Route as appRoute } from './app'

export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  component: SettingsLayout,
})
