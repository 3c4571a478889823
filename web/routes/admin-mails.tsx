import { createRoute, notFound } from '@tanstack/react-router'
import { mailQueries } from '../features/mails/api'
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
  loader: ({ context }) => context.queryClient.ensureQueryData(mailQueries.outbox(context.api)),
}).lazy(() => import('./admin-mails.lazy').then((m) => m.Route))
