import { createLazyRoute } from '@tanstack/react-router'
import { ThreadSkeleton } from '../features/chat/components/chat-skeletons'
import { loadMarkdownRenderer } from '../features/chat/components/markdown'
import { SharedChatNotFound, SharedChatPage } from '../features/chat/components/shared-chat-page'

export const Route = createLazyRoute('/app/shared/$shareId')({
  pendingComponent: ThreadSkeleton,
  notFoundComponent: SharedChatNotFound,
  component: SharedPage,
})

function SharedPage() {
  const { shareId } = Route.useParams()
  return <SharedChatPage key={shareId} shareId={shareId} />
}

// The router awaits it with this chunk, before it hydrates or shows the page (decision 0133).
SharedPage.preload = loadMarkdownRenderer
