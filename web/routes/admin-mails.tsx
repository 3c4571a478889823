import { createRoute, lazyFn, notFound } from '@tanstack/react-router'
import { systemQueries } from '../lib/system'
import { Route as adminRoute } from './admin-settings'

/** The mails Kontor sent, for following invitations and resets by hand: development and demo only. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/mails',
  beforeLoad: async ({ context }) => {
    const info = await context.queryClient.ensureQueryData(systemQueries.info(context.api))
    if (!info.mailPage) throw notFound()
  },
  loader: lazyFn(() => import('./admin-mails.loader'), 'loader'),
}).lazy(() => import('./admin-mails.lazy').then((m) => m.Route))
