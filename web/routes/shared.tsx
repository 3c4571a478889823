import { createRoute, notFound } from '@tanstack/react-router'
import { shareQueries } from '../features/chat/share-api'
import { isApiError } from '../lib/api-client'
import { Route as appRoute } from './app'

/**
 * A chat shared in the organisation (docs/decisions/0061-sharing-chats.md): signed-in members
 * only (the app layout sends others to sign in); one not shared with the caller is not found.
 */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/shared/$shareId',
  staticData: { earlyHead: 'never' },
  loader: async ({ context, params }) => {
    try {
      const shared = await context.queryClient.ensureQueryData(shareQueries.shared(context.api, params.shareId))
      return { title: shared.title }
    } catch (error) {
      if (isApiError(error) && (error.code === 'SHARE_NOT_FOUND' || error.code === 'VALIDATION_FAILED')) throw notFound()
      throw error
    }
  },
  head: ({ loaderData }) => ({ meta: [{ title: loaderData?.title ? `${loaderData.title} · Kontor` : 'Kontor' }] }),
}).lazy(() => import('./shared.lazy').then((m) => m.Route))
