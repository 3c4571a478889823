import { createRoute } from '@tanstack/react-router'
import { apiKeyQueries } from '../features/api-keys/api'
import { Route as adminRoute } from './admin-settings'

/** The organisation's API access and every member's API key. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/api',
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(apiKeyQueries.settings(context.api)),
      context.queryClient.ensureQueryData(apiKeyQueries.organization(context.api)),
    ]),
}).lazy(() => import('./admin-api.lazy').then((m) => m.Route))
