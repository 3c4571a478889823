import { createRoute, notFound } from '@tanstack/react-router'
import { AdminSettingsLayout } from '../features/settings/components/admin-settings-layout'
import { Route as appRoute } from './app'

/** Admins only: anyone else sees Not Found, as if the area did not exist. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/admin-settings',
  beforeLoad: ({ context }) => {
    if (context.me.role !== 'admin') throw notFound()
  },
  component: AdminSettingsLayout,
})
