import { createRoute } from '@tanstack/react-router'
import { agentQueries } from '../lib/agent-queries'
import { Route as appRoute } from './app'
import { modelListQueries } from '../lib/model-lists'

/** The user's agents (spec section 2), and the permitted models their dialog offers. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/agents',
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(agentQueries.list(context.api)),
      context.queryClient.ensureQueryData(modelListQueries.languageModels(context.api)),
    ])
  },
}).lazy(() => import('./agents.lazy').then((m) => m.Route))
