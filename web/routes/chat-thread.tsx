import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as appRoute } from './app'

/** A chat (spec section 2): loads the thread and whether an embedding model is enabled. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/chats/$threadId',
  staticData: { earlyHead: 'never' },
  // `message`: a message to scroll to and highlight (a search result), loaded with the chat.
  validateSearch: (s: Record<string, unknown>): { message?: string } => ({ message: typeof s.message === 'string' && s.message ? s.message : undefined }),
  loaderDeps: ({ search }) => ({ message: search.message }),
  loader: lazyFn<typeof import('./chat-thread.loader'), 'loader'>(() => import('./chat-thread.loader'), 'loader'),
  // The tab's title from the first byte; the page keeps it up to date (useDocumentTitle).
  head: ({ loaderData }) => ({ meta: [{ title: loaderData?.title ? `${loaderData.title} · Kontor` : 'Kontor' }] }),
}).lazy(() => import('./chat-thread.lazy').then((m) => m.Route))
