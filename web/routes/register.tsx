import { createRoute } from '@tanstack/react-router'
import { systemQueries } from '../lib/system'
import { Route as rootRoute } from './__root'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  staticData: { earlyHead: 'signed-out' },
  loader: ({ context }) => context.queryClient.ensureQueryData(systemQueries.info(context.api)),
}).lazy(() => import('./register.lazy').then((m) => m.Route))
