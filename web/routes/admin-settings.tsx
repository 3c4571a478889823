import { createRoute, lazyRouteComponent, notFound } from '@tanstack/react-router'
import { Route as appRoute } from './app'

/** Admins only: anyone else sees Not Found, as if the area did not exist. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/admin-settings',
  staticData: { earlyHead: 'never' },
  beforeLoad: ({ context }) => {
    if (context.me.role !== 'admin') throw notFound()
  },
  component: lazyRouteComponent(() => import('../features/settings/components/admin-settings-layout'), 'AdminSettingsLayout'),
})
