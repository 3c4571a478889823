import { createRoute } from '@tanstack/react-router'
import { modelQueries } from '../features/models/api'
import { Route as adminRoute } from './admin-settings'

/** Providers, enabled and available models, and own endpoints (spec section 2: loads two model lists). */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/models',
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(modelQueries.providers(context.api)),
      context.queryClient.ensureQueryData(modelQueries.available(context.api)),
      context.queryClient.ensureQueryData(modelQueries.permitted(context.api)),
      context.queryClient.ensureQueryData(modelQueries.endpoints(context.api)),
    ])
  },
}).lazy(() => import('./admin-models.lazy').then((m) => m.Route))
