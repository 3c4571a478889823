import { createRoute, notFound } from '@tanstack/react-router'
import { billingQueries } from '../features/billing/api'
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
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(billingQueries.subscription(context.api)),
      context.queryClient.ensureQueryData(billingQueries.price(context.api)),
    ])
  },
}).lazy(() => import('./admin-billing.lazy').then((m) => m.Route))
