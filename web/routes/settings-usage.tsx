import { createRoute } from '@tanstack/react-router'
import { Route as settingsRoute } from './settings'

/** The member's own model usage (the chart library loads here only). */
export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/usage',
}).lazy(() => import('./settings-usage.lazy').then((m) => m.Route))
