import { createRoute, lazyFn, notFound } from '@tanstack/react-router'
import { systemQueries } from '../lib/system'
import { Route as adminRoute } from './admin-settings'

/** The subscription (none is no error) and the price (spec section 2). */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/billing',
  // A self-hosted instance has no subscription (reference.md "Modes").
  beforeLoad: async ({ context }) => {
    const info = await context.queryClient.ensureQueryData(systemQueries.info(context.api))
    if (!info.isCloud) throw notFound()
  },
  loader: lazyFn(() => import('./admin-billing.loader'), 'loader'),
}).lazy(() => import('./admin-billing.lazy').then((m) => m.Route))
