import { createRoute } from '@tanstack/react-router'
import { GeneralSettings } from '../features/settings/components/general-settings'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/general',
  component: GeneralSettings,
})
