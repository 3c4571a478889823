import { createRoute } from '@tanstack/react-router'
import { collectionQueries } from '../lib/collection-queries'
import { Route as appRoute } from './app'

/** The knowledge collections the user may read: their own and those shared with them. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/knowledge',
  loader: ({ context }) => context.queryClient.ensureQueryData(collectionQueries.list(context.api)),
}).lazy(() => import('./knowledge.lazy').then((m) => m.Route))
