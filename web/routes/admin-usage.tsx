import { createRoute } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

/** The organisation's model usage: tokens and cost by day, member, group and model (the chart library loads here only). */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/usage',
}).lazy(() => import('./admin-usage.lazy').then((m) => m.Route))
