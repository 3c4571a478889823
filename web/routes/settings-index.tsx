import { createRoute, redirect } from '@tanstack/react-router'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/',
  staticData: { earlyHead: 'never' },
  beforeLoad: () => {
    throw redirect({ to: '/settings/general', replace: true })
  },
})
