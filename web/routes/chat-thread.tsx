import { createRoute, notFound } from '@tanstack/react-router'
import { loadThreadThrough, threadQueries } from '../features/chat/api'
import { preloadMarkdown } from '../features/chat/components/markdown'
import { isApiError } from '../lib/api-client'
import { Route as appRoute } from './app'
import { modelListQueries } from '../lib/model-lists'

/** A chat (spec section 2): loads the thread and whether an embedding model is enabled. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/chats/$threadId',
  staticData: { earlyHead: 'never' },
  // `message`: a message to scroll to and highlight (a search result), loaded with the chat.
  validateSearch: (s: Record<string, unknown>): { message?: string } => ({ message: typeof s.message === 'string' && s.message ? s.message : undefined }),
  loaderDeps: ({ search }) => ({ message: search.message }),
  loader: async ({ context, params, deps }) => {
    // The browser starts loading the markdown renderer; the server waits for it (once per
    // process), so that the replies it renders are markdown in place, not streamed in after their text.
    const markdown = preloadMarkdown()
    try {
      const [, thread] = await Promise.all([
        typeof window === 'undefined' ? markdown : undefined,
        deps.message
          ? loadThreadThrough(context.queryClient, context.api, params.threadId, deps.message)
          : context.queryClient.ensureQueryData(threadQueries.detail(context.api, params.threadId)),
        context.queryClient.ensureQueryData(modelListQueries.embeddingEnabled(context.api)),
        context.queryClient.ensureQueryData(modelListQueries.languageModels(context.api)),
      ])
      return { title: thread.title }
    } catch (error) {
      if (isApiError(error) && error.code === 'THREAD_NOT_FOUND') throw notFound()
      throw error
    }
  },
  // The tab's title from the first byte; the page keeps it up to date (useDocumentTitle).
  head: ({ loaderData }) => ({ meta: [{ title: loaderData?.title ? `${loaderData.title} · Kontor` : 'Kontor' }] }),
}).lazy(() => import('./chat-thread.lazy').then((m) => m.Route))
