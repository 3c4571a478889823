import { createLazyRoute } from '@tanstack/react-router'
import { NewChatSkeleton } from '../features/chat/components/chat-skeletons'
import { NewChatPage } from '../features/chat/components/new-chat-page'
import type { PromptPickerSlot } from '../features/chat/lib/slots'
import { PromptPicker } from '../features/prompts/components/prompt-picker'
import { LazyPromptVariablesDialog } from '../features/prompts/components/lazy-prompt-variables-dialog'
import { useNewChatAttachments } from '../features/sources/hooks/use-attachments'

export const Route = createLazyRoute('/app/chat')({
  pendingComponent: NewChatSkeleton,
  component: ChatPage,
})

function ChatPage() {
  const data = Route.useLoaderData()
  const search = Route.useSearch()
  // A new page for other search parameters, so that its model choice starts afresh.
  return (
    <NewChatPage
      key={`${search.modelId}|${search.agentId}|${search.prompt}`}
      data={data}
      useAttachments={useNewChatAttachments}
      promptPicker={promptPicker}
      PromptVariables={LazyPromptVariablesDialog}
    />
  )
}

/** The picker beside the message field; the chat page does not import prompts. */
const promptPicker: PromptPickerSlot = (onInsert) => <PromptPicker onInsert={onInsert} />
