import { createRoute } from '@tanstack/react-router'
import { apiKeyQueries } from '../features/api-keys/api'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/api-keys',
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(apiKeyQueries.own(context.api)),
      context.queryClient.ensureQueryData(apiKeyQueries.settings(context.api)),
    ]),
}).lazy(() => import('./settings-api-keys.lazy').then((m) => m.Route))
