import { createRoute } from '@tanstack/react-router'
import { NewChatPage } from '../features/chat/components/new-chat-page'
import { NewChatSkeleton } from '../features/chat/components/chat-skeletons'
import { loadNewChat, type NewChatSearch } from '../features/chat/lib/new-chat'
import { Route as appRoute } from './app'

/** A new chat (spec section 2): the given model, else the given agent, else the default model. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/chat',
  validateSearch: (s: Record<string, unknown>): NewChatSearch => ({
    prompt: typeof s.prompt === 'string' ? s.prompt : undefined,
    modelId: typeof s.modelId === 'string' ? s.modelId : undefined,
    agentId: typeof s.agentId === 'string' ? s.agentId : undefined,
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadNewChat(context, deps),
  pendingComponent: NewChatSkeleton,
  component: ChatPage,
})

function ChatPage() {
  const data = Route.useLoaderData()
  const search = Route.useSearch()
  // A new page for other search parameters, so that its model choice starts afresh.
  return <NewChatPage key={`${search.modelId}|${search.agentId}|${search.prompt}`} data={data} />
}
