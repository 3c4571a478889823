import { createLazyRoute } from '@tanstack/react-router'
import { ThreadNotFound, ThreadSkeleton } from '../features/chat/components/chat-skeletons'
import { ThreadPage } from '../features/chat/components/thread-page'

export const Route = createLazyRoute('/app/chats/$threadId')({
  pendingComponent: ThreadSkeleton,
  notFoundComponent: ThreadNotFound,
  component: ChatThreadPage,
})

function ChatThreadPage() {
  const { threadId } = Route.useParams()
  return <ThreadPage key={threadId} threadId={threadId} />
}
