import { createRoute, lazyRouteComponent, notFound } from '@tanstack/react-router'
import { ensureManageStrings } from '../lib/i18n'
import { Route as appRoute } from './app'

/** Admins only: anyone else sees Not Found, as if the area did not exist. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/admin-settings',
  staticData: { earlyHead: 'never' },
  beforeLoad: async ({ context }) => {
    if (context.me.role !== 'admin') throw notFound()
    // The administration screens' strings come with the first of them (the chat does not load them).
    await ensureManageStrings(context.i18n)
  },
  component: lazyRouteComponent(() => import('../features/settings/components/admin-settings-layout'), 'AdminSettingsLayout'),
})
