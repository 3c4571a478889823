import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { agentQueries } from '../features/agents/api'
import { modelQueries } from '../features/models/api'
import { Route as appRoute } from './app'

const agentsPage = () => import('../features/agents/components/agents-page')

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
  pendingComponent: lazyRouteComponent(agentsPage, 'AgentsPageSkeleton'),
  component: lazyRouteComponent(agentsPage, 'AgentsPage'),
})
