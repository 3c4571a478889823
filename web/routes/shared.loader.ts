import { notFound } from '@tanstack/react-router'
import { shareQueries } from '../features/chat/share-api'
import { isApiError } from '../lib/api-client'
import type { RouterContext } from '../router-context'

export async function loader({ context, params }: { context: RouterContext; params: { shareId: string } }) {
  try {
    const shared = await context.queryClient.ensureQueryData(shareQueries.shared(context.api, params.shareId))
    return { title: shared.title }
  } catch (error) {
    if (isApiError(error) && (error.code === 'SHARE_NOT_FOUND' || error.code === 'VALIDATION_FAILED')) throw notFound()
    throw error
  }
}
