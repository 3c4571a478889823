import { createLazyRoute } from '@tanstack/react-router'
import { NewChatSkeleton } from '../features/chat/components/chat-skeletons'
import { NewChatPage } from '../features/chat/components/new-chat-page'

export const Route = createLazyRoute('/app/chat')({
  pendingComponent: NewChatSkeleton,
  component: ChatPage,
})

function ChatPage() {
  const data = Route.useLoaderData()
  const search = Route.useSearch()
  // A new page for other search parameters, so that its model choice starts afresh.
  return <NewChatPage key={`${search.modelId}|${search.agentId}|${search.prompt}`} data={data} />
}
