import { createRoute, notFound } from '@tanstack/react-router'
import { isApiError } from '../lib/api-client'
import { collectionQueries } from '../lib/collection-queries'
import { Route as appRoute } from './app'

/** One knowledge collection: its files and, for its owner, its sharing. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/knowledge/$collectionId',
  loader: async ({ context, params }) => {
    try {
      await Promise.all([
        context.queryClient.ensureQueryData(collectionQueries.detail(context.api, params.collectionId)),
        context.queryClient.ensureQueryData(collectionQueries.files(context.api, params.collectionId)),
      ])
    } catch (error) {
      if (isApiError(error) && error.code === 'COLLECTION_NOT_FOUND') throw notFound()
      throw error
    }
  },
}).lazy(() => import('./knowledge-collection.lazy').then((m) => m.Route))
