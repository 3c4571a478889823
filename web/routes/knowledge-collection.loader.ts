import { notFound } from '@tanstack/react-router'
import { isApiError } from '../lib/api-client'
import { collectionQueries } from '../lib/collection-queries'
import type { RouterContext } from '../router-context'

export async function loader({ context, params }: { context: RouterContext; params: { collectionId: string } }) {
  try {
    await Promise.all([
      context.queryClient.ensureQueryData(collectionQueries.detail(context.api, params.collectionId)),
      context.queryClient.ensureQueryData(collectionQueries.files(context.api, params.collectionId)),
    ])
  } catch (error) {
    if (isApiError(error) && error.code === 'COLLECTION_NOT_FOUND') throw notFound()
    throw error
  }
}
