import { notFound } from '@tanstack/react-router'
import { preloadMarkdown } from '../features/chat/components/markdown'
import { shareQueries } from '../features/chat/share-api'
import { isApiError } from '../lib/api-client'
import type { RouterContext } from '../router-context'

export async function loader({ context, params }: { context: RouterContext; params: { shareId: string } }) {
  // As a chat's loader: the server renders the replies as markdown in place, their code highlighted.
  const markdown = preloadMarkdown()
  try {
    const [, shared] = await Promise.all([
      typeof window === 'undefined' ? markdown : undefined,
      context.queryClient.ensureQueryData(shareQueries.shared(context.api, params.shareId)),
    ])
    return { title: shared.title }
  } catch (error) {
    if (isApiError(error) && (error.code === 'SHARE_NOT_FOUND' || error.code === 'VALIDATION_FAILED')) throw notFound()
    throw error
  }
}
