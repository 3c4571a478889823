import { createRoute } from '@tanstack/react-router'
import { agentQueries } from '../features/agents/api'
import { modelQueries } from '../features/models/api'
import { Route as appRoute } from './app'

/** The user's agents (spec section 2), and the permitted models their dialog offers. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/agents',
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(agentQueries.list(context.api)),
      context.queryClient.ensureQueryData(modelQueries.languageModels(context.api)),
    ])
  },
}).lazy(() => import('./agents.lazy').then((m) => m.Route))
