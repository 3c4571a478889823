import { createRoute, redirect } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/admin-settings/users', replace: true })
  },
})
