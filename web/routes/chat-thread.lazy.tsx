import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { ThreadNotFound, ThreadSkeleton } from '../features/chat/components/chat-skeletons'
import { loadMarkdownRenderer } from '../features/chat/components/markdown'
import { ThreadPage } from '../features/chat/components/thread-page'
import type { PromptPickerSlot } from '../features/chat/lib/slots'
import { PromptPicker } from '../features/prompts/components/prompt-picker'
import { useThreadAttachments } from '../features/sources/hooks/use-attachments'

export const Route = createLazyRoute('/app/chats/$threadId')({
  pendingComponent: ThreadSkeleton,
  notFoundComponent: () => <ThreadNotFound />,
  component: ChatThreadPage,
})

function ChatThreadPage() {
  const { threadId } = Route.useParams()
  const { message } = Route.useSearch()
  const navigate = useNavigate()
  // Once shown, the message leaves the address: opening the same result again scrolls to it again.
  const onRevealed = () => void navigate({ to: '/chats/$threadId', params: { threadId }, search: {}, replace: true })
  return (
    <ThreadPage
      key={threadId}
      threadId={threadId}
      reveal={message}
      onRevealed={onRevealed}
      useAttachments={useThreadAttachments}
      promptPicker={promptPicker}
    />
  )
}

// The router awaits it with this chunk, before it hydrates or shows the page (decision 0133).
ChatThreadPage.preload = loadMarkdownRenderer

/** The picker beside the message field; the chat page does not import prompts. */
const promptPicker: PromptPickerSlot = (onInsert) => <PromptPicker onInsert={onInsert} />
